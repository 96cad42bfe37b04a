"""Reading a user-named text file in the tools, as the engine does (variants::file): only a
regular file, at most MAX_BYTES, else a clear message and exit status 2, never a read
without end (/dev/zero, a pipe) or a traceback."""
import os
import stat
import sys

MAX_BYTES = 64 << 20


def read_text(path):
    """The whole text of the regular file at `path`; exits with a message otherwise."""
    try:
        st = os.stat(path)
    except OSError as e:
        sys.exit(f"{path}: cannot read: {e.strerror}")
    if stat.S_ISDIR(st.st_mode):
        sys.exit(f"{path}: cannot read: is a directory")
    if not stat.S_ISREG(st.st_mode):
        sys.exit(f"{path}: cannot read: not a regular file (a device or a pipe)")
    if st.st_size > MAX_BYTES:
        sys.exit(f"{path}: cannot read: larger than {MAX_BYTES} bytes")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        sys.exit(f"{path}: cannot read: {e.strerror}")
    if len(data) > MAX_BYTES:
        sys.exit(f"{path}: cannot read: larger than {MAX_BYTES} bytes")
    return data.decode("utf-8", errors="replace")
