"""Independent Adobe Swatch Exchange writer/reader for the palette golden test (Python stdlib only).

    python3 ase_check.py write sunset.ase     # writes the golden file from the table below
    python3 ase_check.py read FILE.ase        # prints group and colour blocks, fails on any malformation
"""
import struct, sys

SUNSET = [('#E63946 50.0%', (230, 57, 70)), ('#1D3557 33.3%', (29, 53, 87)), ('#A8DADC 16.7%', (168, 218, 220))]


def name_bytes(name):
    units = name.encode('utf-16-be') + b'\0\0'
    return struct.pack('>H', len(units) // 2) + units


def write(path, title='Sunset', colours=SUNSET):
    blocks = [(0xC001, name_bytes(title))]
    for name, rgb in colours:
        blocks.append((0x0001, name_bytes(name) + b'RGB ' + struct.pack('>3f', *(c / 255 for c in rgb)) + struct.pack('>H', 2)))
    blocks.append((0xC002, b''))
    out = b'ASEF' + struct.pack('>HHI', 1, 0, len(blocks))
    out += b''.join(struct.pack('>HI', t, len(body)) + body for t, body in blocks)
    open(path, 'wb').write(out)


def read(path):
    data = open(path, 'rb').read()
    assert data[:4] == b'ASEF', 'signature'
    major, minor, count = struct.unpack('>HHI', data[4:12])
    assert (major, minor) == (1, 0), 'version'
    off = 12
    for _ in range(count):
        kind, length = struct.unpack('>HI', data[off:off + 6]); off += 6
        body = data[off:off + length]; off += length
        assert len(body) == length, 'truncated block'
        if kind == 0xC002: print('group end'); continue
        n = struct.unpack('>H', body[:2])[0]; name = body[2:2 + 2 * n].decode('utf-16-be').rstrip('\0')
        if kind == 0xC001: print('group', name); continue
        assert kind == 0x0001, f'block type {kind:#x}'
        rest = body[2 + 2 * n:]
        assert rest[:4] == b'RGB ', 'model'
        r, g, b = struct.unpack('>3f', rest[4:16]); (ctype,) = struct.unpack('>H', rest[16:18])
        assert len(rest) == 18, 'colour block length'
        print(name, round(r * 255), round(g * 255), round(b * 255), ctype)
    assert off == len(data), 'trailing bytes'


if __name__ == '__main__':
    {'write': write, 'read': read}[sys.argv[1]](sys.argv[2])
