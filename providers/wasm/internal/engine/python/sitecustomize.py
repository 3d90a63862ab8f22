# agentenkit: wasi-libc starts every process in "/" and ignores $PWD, so
# start in $PWD here, before any user code runs. Mounted read-only by the
# wasm adapter's engine and put first on PYTHONPATH.
def _agentenkit_chdir():
    import os
    d = os.environ.get("PWD")
    if d and d != "/":
        try:
            os.chdir(d)
        except OSError:
            pass


_agentenkit_chdir()
del _agentenkit_chdir


# agentenkit: the network. `import socket` gets the stdlib's module with
# _agentenkit_net's socket (a connection the sandbox's host opens) and
# `import ssl` gets _agentenkit_ssl (TLS done by the host): urllib.request,
# http.client and pure-Python clients on them work unchanged.
class _AgentenkitNetFinder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name not in ("socket", "ssl"):
            return None
        import importlib.machinery
        import importlib.util
        here = __file__.rsplit("/", 1)[0]
        if name == "ssl":
            return importlib.util.spec_from_file_location("ssl", here + "/_agentenkit_ssl.py")
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            import _agentenkit_net
            _agentenkit_net.patch(module)

        spec.loader.exec_module = exec_module
        return spec


import sys as _sys
_sys.meta_path.insert(0, _AgentenkitNetFinder)
del _sys


# agentenkit: the folder the shell's pip installs into (shell/pip
# UserSite: the user site folder, which this CPython does not enable by
# itself), on sys.path even when pip makes it after this CPython started (a
# prestarted one): the path finder's cached "no such folder" is dropped
# once the folder is there.
def _agentenkit_site():
    import os
    import sys
    d = os.path.join(os.environ.get("HOME") or "/root", ".local/lib/python3.12/site-packages")
    if d not in sys.path:
        sys.path.append(d)

    class _AgentenkitLateSite:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if path is not None or sys.path_importer_cache.get(d, 0) is not None:
                return None
            if not os.path.isdir(d):
                return None
            del sys.path_importer_cache[d]
            import importlib.machinery
            return importlib.machinery.PathFinder.find_spec(name, [d])

    sys.meta_path.append(_AgentenkitLateSite)


_agentenkit_site()
del _agentenkit_site
