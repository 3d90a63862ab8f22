# agentenkit: the ssl module of the sandbox's CPython, which was built
# without OpenSSL. TLS is done by the sandbox's host, which always verifies
# the peer's certificate against its own trusted roots: wrap_socket asks the
# host to start TLS on a connection from _agentenkit_net, and the settings
# that would weaken it (CERT_NONE, check_hostname False, extra CA files)
# change nothing. Loaded as `ssl` by sitecustomize.
import enum as _enum
import socket as _socket

OPENSSL_VERSION = "OpenSSL 3.0.0 (agentenkit: TLS done by the sandbox's host)"
OPENSSL_VERSION_INFO = (3, 0, 0, 0, 0)
OPENSSL_VERSION_NUMBER = 0x30000000
HAS_SNI = HAS_ALPN = HAS_ECDH = HAS_NEVER_CHECK_COMMON_NAME = True
HAS_NPN = HAS_SSLv2 = HAS_SSLv3 = False
HAS_TLSv1 = HAS_TLSv1_1 = False
HAS_TLSv1_2 = HAS_TLSv1_3 = True
CHANNEL_BINDING_TYPES = []


class _IntEnum(_enum.IntEnum):
    pass


class _IntFlag(_enum.IntFlag):
    pass


VerifyMode = _IntEnum("VerifyMode", {"CERT_NONE": 0, "CERT_OPTIONAL": 1, "CERT_REQUIRED": 2})
CERT_NONE, CERT_OPTIONAL, CERT_REQUIRED = VerifyMode.CERT_NONE, VerifyMode.CERT_OPTIONAL, VerifyMode.CERT_REQUIRED
VerifyFlags = _IntFlag("VerifyFlags", {"VERIFY_DEFAULT": 0, "VERIFY_CRL_CHECK_LEAF": 4, "VERIFY_CRL_CHECK_CHAIN": 12,
                                       "VERIFY_X509_STRICT": 32, "VERIFY_X509_TRUSTED_FIRST": 32768,
                                       "VERIFY_X509_PARTIAL_CHAIN": 0x80000, "VERIFY_ALLOW_PROXY_CERTS": 64})
globals().update(VerifyFlags.__members__)
_SSLMethod = _IntEnum("_SSLMethod", {"PROTOCOL_SSLv23": 2, "PROTOCOL_TLS_CLIENT": 16, "PROTOCOL_TLS_SERVER": 17})
PROTOCOL_TLS = PROTOCOL_SSLv23 = _SSLMethod.PROTOCOL_SSLv23
PROTOCOL_TLS_CLIENT, PROTOCOL_TLS_SERVER = _SSLMethod.PROTOCOL_TLS_CLIENT, _SSLMethod.PROTOCOL_TLS_SERVER
Options = _IntFlag("Options", {"OP_ALL": 0x80000054, "OP_NO_SSLv2": 0, "OP_NO_SSLv3": 0x2000000,
                               "OP_NO_TLSv1": 0x4000000, "OP_NO_TLSv1_1": 0x10000000, "OP_NO_TLSv1_2": 0x8000000,
                               "OP_NO_TLSv1_3": 0x20000000, "OP_NO_COMPRESSION": 0x20000, "OP_NO_TICKET": 0x4000,
                               "OP_CIPHER_SERVER_PREFERENCE": 0x400000, "OP_SINGLE_DH_USE": 0,
                               "OP_SINGLE_ECDH_USE": 0, "OP_NO_RENEGOTIATION": 0x40000000,
                               "OP_ENABLE_MIDDLEBOX_COMPAT": 0x100000, "OP_IGNORE_UNEXPECTED_EOF": 0x80,
                               "OP_LEGACY_SERVER_CONNECT": 0x4})
globals().update(Options.__members__)
TLSVersion = _IntEnum("TLSVersion", {"MINIMUM_SUPPORTED": -2, "SSLv3": 768, "TLSv1": 769, "TLSv1_1": 770,
                                     "TLSv1_2": 771, "TLSv1_3": 772, "MAXIMUM_SUPPORTED": -1})


class Purpose(_enum.Enum):
    SERVER_AUTH = "1.3.6.1.5.5.7.3.1"
    CLIENT_AUTH = "1.3.6.1.5.5.7.3.2"


class SSLError(OSError):
    library = reason = None


class SSLZeroReturnError(SSLError):
    pass


class SSLWantReadError(SSLError):
    pass


class SSLWantWriteError(SSLError):
    pass


class SSLSyscallError(SSLError):
    pass


class SSLEOFError(SSLError):
    pass


class SSLCertVerificationError(SSLError, ValueError):
    verify_code = 20
    verify_message = "unable to get local issuer certificate"


CertificateError = SSLCertVerificationError


class SSLContext:
    """Settings for host-side TLS. The host always verifies the peer."""

    def __new__(cls, protocol=None, *args, **kwargs):
        self = object.__new__(cls)
        self.protocol = PROTOCOL_TLS_CLIENT if protocol is None else protocol
        self.verify_mode = CERT_REQUIRED
        self.check_hostname = True
        self.options = OP_ALL | OP_NO_SSLv3 | OP_NO_COMPRESSION
        self.minimum_version = TLSVersion.TLSv1_2
        self.maximum_version = TLSVersion.MAXIMUM_SUPPORTED
        self.verify_flags = VERIFY_X509_TRUSTED_FIRST
        self.post_handshake_auth = False
        self.hostname_checks_common_name = False
        self.keylog_filename = None
        self.sni_callback = None
        self.security_level = 2
        return self

    def __init__(self, protocol=None, *args, **kwargs):
        pass

    def load_verify_locations(self, cafile=None, capath=None, cadata=None):
        pass  # the host trusts its own roots

    def load_default_certs(self, purpose=Purpose.SERVER_AUTH):
        pass

    def set_default_verify_paths(self):
        pass

    def load_cert_chain(self, certfile, keyfile=None, password=None):
        raise SSLError(1, "client certificates are not offered: TLS is done by the sandbox's host")

    def set_ciphers(self, ciphers):
        pass

    def get_ciphers(self):
        return []

    def set_alpn_protocols(self, protocols):
        pass

    def set_ecdh_curve(self, name):
        pass

    def get_ca_certs(self, binary_form=False):
        return []

    def cert_store_stats(self):
        return {"x509": 0, "crl": 0, "x509_ca": 0}

    def wrap_socket(self, sock, server_side=False, do_handshake_on_connect=True,
                    suppress_ragged_eofs=True, server_hostname=None, session=None):
        if server_side:
            raise SSLError(1, "TLS servers are not offered in this sandbox")
        if server_hostname is None:
            if sock._peer is None:
                raise ValueError("server_hostname is needed")
            server_hostname = sock._peer[0]
        if isinstance(server_hostname, bytes):
            server_hostname = server_hostname.decode("idna")
        sock.server_hostname = server_hostname
        sock._start("tls", server_hostname)
        sock.context = self
        return sock

    def wrap_bio(self, *args, **kwargs):
        raise SSLError(1, "memory BIOs are not offered: TLS is done by the sandbox's host")


def create_default_context(purpose=Purpose.SERVER_AUTH, *, cafile=None, capath=None, cadata=None):
    return SSLContext(PROTOCOL_TLS_CLIENT)


def _create_unverified_context(*args, **kwargs):
    return SSLContext(PROTOCOL_TLS_CLIENT)  # still verified by the host


_create_default_https_context = create_default_context
_create_stdlib_context = _create_unverified_context
SSLSocket = _socket.socket


def wrap_socket(sock, keyfile=None, certfile=None, server_side=False, cert_reqs=CERT_NONE,
                ssl_version=PROTOCOL_TLS, ca_certs=None, do_handshake_on_connect=True,
                suppress_ragged_eofs=True, ciphers=None, server_hostname=None):
    return SSLContext().wrap_socket(sock, server_side=server_side, server_hostname=server_hostname)


def match_hostname(cert, hostname):
    pass  # the host matched it


def get_default_verify_paths():
    import collections
    return collections.namedtuple("DefaultVerifyPaths", "cafile capath openssl_cafile_env openssl_cafile "
                                  "openssl_capath_env openssl_capath")(None, None, "SSL_CERT_FILE", "", "SSL_CERT_DIR", "")


def DER_cert_to_PEM_cert(der):
    import base64
    s = base64.standard_b64encode(der).decode()
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(s[i:i + 64] for i in range(0, len(s), 64)) + "\n-----END CERTIFICATE-----\n"


def PEM_cert_to_DER_cert(pem):
    import base64
    body = pem.strip().split("\n")[1:-1]
    return base64.decodebytes("".join(body).encode())


def RAND_bytes(n):
    import os
    return os.urandom(n)


def RAND_status():
    return True
