"""Reads our palette exports independently of the Swift code (Python stdlib only: struct, zipfile,
json, re), as Photoshop, Procreate, Sketch, Sass or Tailwind would, failing on any malformation.

    python3 swatch_check.py FORMAT FILE    # FORMAT: aco, procreate, sketchpalette, scss, tailwind

Prints one line per colour: "#RRGGBB<TAB>label" (label: the name or share the file carries).
"""
import colorsys, json, re, struct, sys, zipfile


def aco(path):
    data = open(path, 'rb').read()
    off = 0
    sections = {}
    while off < len(data):
        version, count = struct.unpack('>HH', data[off:off + 4]); off += 4
        assert version in (1, 2) and version not in sections, f'section version {version}'
        colors = []
        for _ in range(count):
            space, r, g, b, z = struct.unpack('>5H', data[off:off + 10]); off += 10
            assert space == 0 and z == 0, 'RGB colour record'
            name = ''
            if version == 2:
                (units,) = struct.unpack('>I', data[off:off + 4]); off += 4
                raw = data[off:off + 2 * units]; off += 2 * units
                assert len(raw) == 2 * units and raw[-2:] == b'\0\0', 'NUL-terminated UTF-16 name'
                name = raw[:-2].decode('utf-16-be')
            colors.append(('#%02X%02X%02X' % (round(r / 257), round(g / 257), round(b / 257)), name))
        sections[version] = colors
    assert off == len(data), 'trailing bytes'
    assert [c for c, _ in sections[1]] == [c for c, _ in sections[2]], 'version 1 and 2 list the same colours'
    return sections[2]


def procreate(path):
    archive = zipfile.ZipFile(path)
    assert archive.testzip() is None, 'CRC'
    palettes = json.loads(archive.read('Swatches.json'))
    out = []
    for swatch in palettes[0]['swatches']:
        r, g, b = colorsys.hsv_to_rgb(swatch['hue'], swatch['saturation'], swatch['brightness'])
        assert swatch['alpha'] == 1 and swatch['colorSpace'] == 0
        out.append(('#%02X%02X%02X' % (round(r * 255), round(g * 255), round(b * 255)), palettes[0]['name']))
    return out


def sketchpalette(path):
    palette = json.load(open(path))
    assert palette['compatibleVersion'] == '2.0'
    return [('#%02X%02X%02X' % tuple(round(c[k] * 255) for k in ('red', 'green', 'blue')), c['name'])
            for c in palette['colors']]


def scss(path):
    found = re.findall(r'^\$([a-z][a-z0-9-]*): (#[0-9A-F]{6}); // ([0-9.]+%)$', open(path).read(), re.M)
    return [(hex, f'{name} {share}') for name, hex, share in found]


def tailwind(path):
    text = open(path).read()
    assert 'module.exports' in text and 'colors: {' in text
    found = re.findall(r"^\s+'([a-z][a-z0-9-]*)': '(#[0-9A-F]{6})', // ([0-9.]+%)$", text, re.M)
    return [(hex, f'{name} {share}') for name, hex, share in found]


if __name__ == '__main__':
    for hex, label in globals()[sys.argv[1]](sys.argv[2]):
        print(f'{hex}\t{label}')
