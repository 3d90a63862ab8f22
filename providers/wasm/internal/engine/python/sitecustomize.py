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
