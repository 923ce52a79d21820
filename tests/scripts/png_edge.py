#!/usr/bin/env python3
"""png_edge.py PNG [MARGIN]: exit 1, saying where, when anything is drawn within
MARGIN px (default 4) of the left or right edge of PNG (8-bit RGB or RGBA, not
interlaced: what gnuplot's pngcairo writes), as a key box cut at the canvas's
edge is; 0 when those columns are background. SVGs cannot show it: cairo's PNG
text is wider than gnuplot's estimate. Standard library only (zlib)."""
import sys, zlib, struct
def read_png(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, w = 8, b'', None
    while pos < len(d):
        n, = struct.unpack('>I', d[pos:pos+4]); typ = d[pos+4:pos+8]; body = d[pos+8:pos+8+n]
        if typ == b'IHDR':
            w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    assert depth == 8 and inter == 0 and ctype in (2, 6), (depth, ctype, inter)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat); stride = w * bpp; rows = []; prev = bytearray(stride); i = 0
    for y in range(h):
        f = raw[i]; line = bytearray(raw[i+1:i+1+stride]); i += 1 + stride
        for x in range(stride):
            a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return w, h, bpp, rows
w, h, bpp, rows = read_png(sys.argv[1]); m = int(sys.argv[2]) if len(sys.argv) > 2 else 4
bad = [y for y in range(h) for x in list(range(m)) + list(range(w - m, w))
       if min(rows[y][x*bpp:x*bpp+3]) < 200]
if bad:
    print(f"{sys.argv[1]}: drawn within {m} px of the left or right edge at rows {bad[0]}..{bad[-1]}")
    sys.exit(1)
