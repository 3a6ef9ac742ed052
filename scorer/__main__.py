from scorer.cli import entry

entry()
