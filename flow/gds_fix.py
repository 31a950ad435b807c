"""Close the open BOUNDARY elements of a GDSII stream (flow/pdk.py Pdk.layout_cell_gds).

GDSII (Calma stream format 6.0, record BOUNDARY / XY) requires a boundary's last point to repeat
its first. close_boundaries() appends the first point to each XY of a BOUNDARY that does not,
and leaves every other byte as it is; it returns the new stream and, for each boundary closed,
its structure, byte offset and point count.
"""
import struct

BGNSTR_NAME, BOUNDARY, XY, ENDEL = 0x06, 0x08, 0x10, 0x11


def close_boundaries(data: bytes):
    out, fixes = bytearray(), []
    pos, cell, in_boundary = 0, None, False
    while pos + 4 <= len(data):
        n, rtype = struct.unpack(">HB", data[pos:pos + 3])
        if n < 4:  # the null padding after ENDLIB
            out += data[pos:]
            break
        rec = data[pos:pos + n]
        body = rec[4:]
        if rtype == BGNSTR_NAME:
            cell = body.rstrip(b"\0").decode("ascii", "replace")
        elif rtype == BOUNDARY:
            in_boundary = True
        elif rtype == ENDEL:
            in_boundary = False
        elif rtype == XY and in_boundary:
            pts = struct.unpack(f">{len(body) // 4}i", body)
            if pts[:2] != pts[-2:]:
                body = body + body[:8]
                rec = struct.pack(">HBB", len(body) + 4, rec[2], rec[3]) + body
                fixes.append({"cell": cell, "offset": pos, "points": len(pts) // 2})
        out += rec
        pos += n
    return bytes(out), fixes
