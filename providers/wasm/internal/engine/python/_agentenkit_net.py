# agentenkit: sockets for the WASI CPython, which has none. A connection is
# asked of the sandbox's host through the channel file below (the wasm
# adapter serves it: providers/wasm/internal/hostnet documents the
# protocol); the host checks it against the sandbox's network policy and
# does TLS for ssl.wrap_socket. sitecustomize patches the socket module
# with this one's socket class and getaddrinfo when socket is imported, and
# makes `import ssl` load _agentenkit_ssl.
import errno as _errno
import io as _io
import os as _os

CHANNEL = "/dev/agentenkit-net"


def _error(code, msg, host, port):
    """The exception a failed connect raises, as CPython would."""
    import socket
    if code == 6:
        return socket.gaierror(socket.EAI_NONAME, "Name or service not known: " + msg)
    if code == 28:
        return TimeoutError(_errno.ETIMEDOUT, msg)
    if code in (35, 60):
        import ssl
        if code == 60:
            return ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: " + msg)
        return ssl.SSLError(1, msg)
    if "blocked by the sandbox's network policy" in msg:
        i = msg.find("blocked by")
        return PermissionError(_errno.EACCES, msg[i:])
    if "Connection refused" in msg:
        return ConnectionRefusedError(_errno.ECONNREFUSED, "Connection refused")
    return OSError(_errno.EHOSTUNREACH, msg)


def _ask(fd, line):
    _os.write(fd, (line + "\n").encode())
    ans = _os.read(fd, 1024).decode("utf-8", "replace").rstrip("\n")
    if ans.startswith("OK"):
        return None
    parts = ans.split(" ", 2)
    try:
        code = int(parts[1])
    except (IndexError, ValueError):
        code = 7
    return code, (parts[2] if len(parts) > 2 else ans)


class _RawIO(_io.RawIOBase):
    def __init__(self, sock, mode):
        self._sock, self._mode = sock, mode

    def readable(self):
        return "r" in self._mode

    def writable(self):
        return "w" in self._mode

    def readinto(self, b):
        return self._sock.recv_into(b)

    def write(self, b):
        return self._sock.send(b)

    def fileno(self):
        return self._sock.fileno()


def patch(socket_module):
    """Make socket_module's socket, getaddrinfo and friends the host's."""
    m = socket_module
    base = m.socket

    class socket:
        """A TCP connection opened by the sandbox's host."""

        def __init__(self, family=m.AF_INET, type=m.SOCK_STREAM, proto=0, fileno=None):
            if type not in (m.SOCK_STREAM, int(m.SOCK_STREAM) | getattr(m, "SOCK_CLOEXEC", 0)):
                raise OSError(_errno.ENOTSUP, "only TCP connections are offered in this sandbox")
            self.family, self.type, self.proto = family, m.SOCK_STREAM, proto
            self._fd = None
            self._mode = None  # None until the first byte or TLS: "raw" or "tls"
            self._peer = None
            self._timeout = m.getdefaulttimeout()
            self._closed = False
            self.server_hostname = None

        def __repr__(self):
            return "<agentenkit socket peer=%r>" % (self._peer,)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

        def connect(self, address):
            if self._fd is not None:
                raise OSError(_errno.EISCONN, "Transport endpoint is already connected")
            host, port = address[0], int(address[1])
            try:
                fd = _os.open(CHANNEL, _os.O_RDWR)
            except OSError:
                raise OSError(_errno.ENETUNREACH, "this sandbox has no network (its adapter offers none)") from None
            err = _ask(fd, "CONNECT %s %d" % (host, port))
            if err is not None:
                _os.close(fd)
                raise _error(err[0], err[1], host, port)
            self._fd, self._peer = fd, (host, port)

        def connect_ex(self, address):
            try:
                self.connect(address)
            except OSError as e:
                return e.errno or _errno.ECONNREFUSED
            return 0

        def _start(self, mode, name=None):
            if self._fd is None:
                raise OSError(_errno.ENOTCONN, "Transport endpoint is not connected")
            if self._mode is None:
                err = _ask(self._fd, "TLS " + name if mode == "tls" else "RAW")
                if err is not None:
                    self.close()
                    raise _error(err[0], err[1], *self._peer)
                self._mode = mode

        def send(self, data, flags=0):
            self._start("raw")
            return _os.write(self._fd, data)

        def sendall(self, data, flags=0):
            self._start("raw")
            mv = memoryview(data).cast("B")
            while mv:
                n = _os.write(self._fd, mv)
                mv = mv[n:]

        def recv(self, n, flags=0):
            self._start("raw")
            try:
                return _os.read(self._fd, n)
            except InterruptedError:
                raise m.timeout("timed out") from None

        def recv_into(self, buf, nbytes=0, flags=0):
            data = self.recv(nbytes or len(buf))
            buf[:len(data)] = data
            return len(data)

        def makefile(self, mode="r", buffering=None, *, encoding=None, errors=None, newline=None):
            raw = _RawIO(self, mode.replace("b", ""))
            if buffering == 0:
                return raw
            if "r" in mode and "w" in mode:
                f = _io.BufferedRWPair(raw, raw)
            elif "w" in mode:
                f = _io.BufferedWriter(raw)
            else:
                f = _io.BufferedReader(raw)
            if "b" in mode:
                return f
            return _io.TextIOWrapper(f, encoding, errors, newline)

        def settimeout(self, t):
            self._timeout = t

        def gettimeout(self):
            return self._timeout

        def setblocking(self, flag):
            self._timeout = None if flag else 0.0

        def getblocking(self):
            return self._timeout != 0.0

        def setsockopt(self, *args):
            pass

        def getsockopt(self, *args):
            return 0

        def getpeername(self):
            if self._peer is None:
                raise OSError(_errno.ENOTCONN, "Transport endpoint is not connected")
            return self._peer

        def getsockname(self):
            return ("0.0.0.0", 0)

        def fileno(self):
            return -1 if self._fd is None else self._fd

        def detach(self):
            fd, self._fd = self._fd, None
            return -1 if fd is None else fd

        def shutdown(self, how):
            pass

        def close(self):
            if self._fd is not None and not self._closed:
                self._closed = True
                try:
                    _os.close(self._fd)
                except OSError:
                    pass

        # ssl.SSLSocket's methods, once _agentenkit_ssl wrapped it.
        def do_handshake(self, block=False):
            pass

        def version(self):
            return "TLSv1.3" if self._mode == "tls" else None

        def cipher(self):
            return ("TLS_AES_128_GCM_SHA256", "TLSv1.3", 128) if self._mode == "tls" else None

        def selected_alpn_protocol(self):
            return "http/1.1" if self._mode == "tls" else None

        def getpeercert(self, binary_form=False):
            if self._mode != "tls":
                return None
            if binary_form:
                return b""
            return {"subject": ((("commonName", self.server_hostname),),),
                    "subjectAltName": (("DNS", self.server_hostname),)}

        def pending(self):
            return 0

        def unwrap(self):
            return self

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        if isinstance(port, str):
            port = int(port) if port.isdigit() else {"http": 80, "https": 443}.get(port, 0)
        if isinstance(host, bytes):
            host = host.decode("idna")
        return [(m.AF_INET, m.SOCK_STREAM, 6, "", (host, port or 0))]

    def gethostbyname(host):
        return host

    socket.__module__ = m.__name__
    m._agentenkit_base_socket = base
    m.socket = m.SocketType = socket
    m.getaddrinfo = getaddrinfo
    m.gethostbyname = gethostbyname
    m.has_ipv6 = False
