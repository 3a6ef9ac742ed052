"""The ArUco 4 x 4 marker codes (OpenCV's ``DICT_4X4_1000``), without OpenCV.

Printing markers must not need the optional OpenCV extra, so the 1,000 codes of
the dictionary are kept here: four hex digits per marker ID, the 16 data bits row
by row from the top-left, ``1`` for a white module. A printed marker is these
4 x 4 modules inside a black border one module wide (6 x 6 modules in all), on a
light quiet zone. ``tests/test_photo_markers.py`` checks every code against
OpenCV's own dictionary.
"""

from __future__ import annotations

DICTIONARY = "DICT_4X4_1000"
DATA = 4  # data modules per side
MODULES = DATA + 2  # with the black border

_CODES = (
    "b5320f9a332d9946549e79cd9e2ec4f2fedacf56f99111a70eb72a0f24b1263e466566006c5e76af868bb02b"
    "ccd5dd82fe479471ace4a5542123346f441557b29ecff0cb08ae0929187504ff0df61c5a17182a28328c38b2"
    "24e82eeb2d3f4b64502e5013519455685d415f9768016867612461e96b126fe567df7e1b80a083448ba2937a"
    "846c852a859c9c899fa1bb7cbc04b65bbfc8b7abca1fc962d958d3d5cc98c7a0c537e95df925fbbbee2af74d"
    "35758aad76170acf064b2dc149d843f44f364fd369e470c77a6eb4eaed4ffce7fea6002500430a880a86026f"
    "001c009708370a3109c60b0109fb0b581082182d10781073127412b11af913060c0e0cf104330c9f0ef20efd"
    "074c0fa4072f05b50f9107db1ee414391d8015c81f8b15ba1db1208028e922a228532af022f72940214629b9"
    "2b9c2bb238ca382e300738e73a493a65325d3b88391d3bd3264727802faa2d1425de25532f7734483ca83c41"
    "340d34fb369a3de0356a3d093ded3fc43f6c37ce3d5c3d7637b03f173fff48e542684a2d4160495141dd4bdf"
    "584f5a485816505d5afa5ab551235b8a591951354c6946c14e0b445f4e594d834d7d47d847735c855e44562b"
    "5cbb55c35f6e5feb5d12555e6270621561c26b2063456b5c6b5b780c7acf787f798071e5717479b671d37b33"
    "646a66a86ea76e9165226dcb678d6d317e807ee27e8d74d27c327e3575ab77057f2b7dda7f92807580f381a6"
    "89ed81fc98a69a20914399f991939bd48409846b86c48e64861a854e8dcb856785af85d787b39ce19cf29417"
    "950095a29d239f629d5295daa0c5aacda2d8a257a93da957ab52a336a359b0f4b812b0bfb29dbbedb972b996"
    "a4c3acd2aeb1a582af65a57baffab464bc62b481b6a0beeebe0dbcd9bef8b528b709b7d2c0eac019c0fdc8d3"
    "ca5ac14dc9b4c157c398c31dd880d8efda2bd01ed105d3addba7c4c9cc78cd45c50bcfcfdcacd402dc63d427"
    "d4f5d678deb8dde6d55dddbddf1de2caea6be0b4e238e2d4e322e1d8f003f2ccf8f6f149f3eaf19cf9f5f13b"
    "ec8deec9e60fe4f7e760efe8edb2e515efd1f486fc01f6c3f47cfc93f542fd98f53d02bd00e102e202ae0878"
    "0074089e08d1087d0a320ade025101a203800b830b4b0b270bef09b6095909930bf803d903f110c418ab1aa0"
    "1a041a6c1aae128910171af319401102112b11cf1b22132e111513bb0c200cc90cdc0c36061406720d61050d"
    "0d8f0fe00f49078505900d330f960f7614601c8d14da1c731e941eba16d91e3d16fb1de91dfe1f9f288b20af"
    "220e22a92a8d2aa32aef2890283b2a58223321a0210221a521c72b032367293029d22b192b9b2b97382838a5"
    "3a863201389f32d23a993ad539e83bc133433be7319a33903b9e24c42c4a2cad2ccf2c6726ea2ee52c702e12"
    "2ed12e39256425e72fcc2dbc2d7125d5259b27102f7c27f2273a2fb627d32fb3271f3c4b36c036ee3ee934b8"
    "3c143c523472347e34bf3e713e533d8c35a2352e352d37ac357037fa3ff13fdb48c448e94ac24a4142eb4813"
    "4ad842fd4a174963436e413a49b1413d4b924b9b433f582250aa582752c85284520a5a0f5898585c50db50f7"
    "5af451ec5142510d5b0353eb51765971519353f95bb353974c4c444b4c23468c4e2746904ed445ce45e54527"
    "4fc14705453445725cc85c0e54eb568956435ee75c7054b25e7956f35da35df2551d5d9d57fc57d25f73682d"
    "68c368876a4a626960b968ff6adc6ada6a3e6a516a3162d761cc6b826be3693a619e61956175695f693763da"
    "70027863704f72ca7aad707b7a147af97ad37abb79e271297b6771d07939733073b9735373ff6c8864096c43"
    "6606668364b064da6e9f67c86fee6d3b6fd274807cab7e687e027c9c74367c117ede7eb676db7dc47d8a756d"
    "778877207741753875be7d9b7757882880ac880d8867824e8aa1822b801888f9809d8a9c82318a7582978109"
    "81eb81078b288bac832e83e5815089328b7a8b96837d90879afc92f591aa934193259beb993491f79bda9356"
    "84428c818c4f864886a68e0386e3866f8eaf845e847786fa8e1e8e37870a8f8a8f268721870d8572873e9c43"
    "9e61945894f89c32947694b194dd949b9cdb9e9c9ed296199eb195699f6d972b95b695b99d3d9d57a8eca825"
    "a2aca202aa66aa8faae7a830a87aa8f6a893a214aa34a272aaf2a2f1a140a90aa126a9c5a9cfa134a912a1fa"
    "ab98a3f7b006b045b88db284b8f0b855b276ba91b271b9c0b942b92ab38cb3cabb66b30fb1dabb14bbf6b313"
    "a468ac2caca1acebacc7a467a6c0aee0a623ade8a5cca7ecad7ca51aa591ad19a597b46dbecbbc3abcf5bebd"
    "bef3b525b58fb768bfe4bdfebd9db5f5b5f3bfb0b75abf3eb739bfd5b71dbf35b77fc801c0a5c282c8bdc2fc"
    "ca91c25bc944c12ac3c0c97ac1b9c975c1f7cbb1d06cd887d0afdac4d20cda09d030d894d03ad0b6d075d276"
    "da5dda35d217d902d3e8d3e5d19ad1f6d151db14d33ed3d3c460cca7c642c647cee7c45ccc1dcc35c6bccda8"
    "c50cc5e4c5c2cd2dcd59cd95c593c75fd4c5de88d624deecd6e2dec6de23dcdcdc1ad411de54d694de9ddd81"
    "d5a5d7acd766dfa9d5dcdd1fdff0e248e2e8e207e05deaf5eb26ebede152e17ee9dbf806f0eef8a1fa00fac2"
    "f09bfaf4fa3cf2fcf2bdf293f160f9ecf146f9e1f348f3aef3c1f38bf3a7f173f197f3f4fb32e407e64dec55"
    "edc0ed85efa2e74ee5d5ef50f422f489f429f66afe0bfe6ff495f435f41ff6b0f5e8f5c5fd23ffc0f7ccf7e9"
    "f5bcfdf6f5d9fd97fd3fff9cff5af7feff11f7bf"
)


def code_count() -> int:
    return len(_CODES) // 4


def data_bits(marker_id: int) -> tuple[tuple[int, ...], ...]:
    """The 4 x 4 data bits of ``marker_id`` (rows from the top, 1 = white)."""
    if not 0 <= marker_id < code_count():
        raise ValueError(f"marker ID {marker_id} is outside {DICTIONARY} (0-{code_count() - 1})")
    value = int(_CODES[marker_id * 4:marker_id * 4 + 4], 16)
    bits = [(value >> (15 - i)) & 1 for i in range(16)]
    return tuple(tuple(bits[r * DATA:(r + 1) * DATA]) for r in range(DATA))


def modules(marker_id: int) -> tuple[tuple[int, ...], ...]:
    """The whole 6 x 6 marker: the black border (0) around the data bits (1 = white)."""
    rows = [(0,) * MODULES]
    rows += [(0, *row, 0) for row in data_bits(marker_id)]
    rows.append((0,) * MODULES)
    return tuple(rows)
