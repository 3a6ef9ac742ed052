from web.cli import entry

entry()
