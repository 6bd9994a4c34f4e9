# payload: the bytes every hostile-escapes attack carries, built here so that no raw control
# byte sits in the repository. Every C0 control but the line feed, DEL, every C1 control (as
# UTF-8, and on stderr as the raw 8-bit byte 0x9b, CSI), and the sequences that worked against hosts:
# window title, screen clear, cursor-up + erase-line, an OSC 8 hyperlink, an OSC 52 clipboard
# write, fake colours; bidi overrides and isolates, zero-width and blank characters.
C0 = bytes(b for b in range(0x20) if b != 0x0A)
C1 = ''.join(chr(c) for c in range(0x80, 0xA0)).encode()
SEQUENCES = (
    b'\x1b]0;PWNED-TITLE\x07'
    b'\x1b[2J\x1b[H'
    b'\x1b[1A\x1b[2K'
    b'\x1b]8;;https://evil.invalid/\x1b\\click-me\x1b]8;;\x1b\\'
    b'\x1b]52;c;cHduZWQ=\x07'
    b'\x1b[31mFAKE-RED\x1b[0m'
)
UNICODE = '\u202e\u202d\u2066\u2067\u2068\u2069\u200b\u200e\u200f\u2028\u2029\ufeff\u2800\u3164'.encode()
# What a reply carries (a reply that is not UTF-8 is faulted without being quoted).
TEXT = b'evil:' + SEQUENCES + UNICODE + C0 + b'\x7f' + C1 + b':end'
# What stderr carries: the same and a raw 8-bit CSI (0x9b), which is not UTF-8.
PAYLOAD = TEXT + b'\x9b2J'
