# agentenkit: a prestarted CPython. The engine starts CPython with this
# program while the sandbox is idle; it waits on stdin for one request —
# 8 bytes of length, then NUL-separated fields: kind (c, m or f), the
# program name, the folder, the target (code, module or script path), argc,
# argv, then the environment — and runs it as `python -c`, `python -m` or
# `python SCRIPT` would, in this interpreter, once. Tracebacks show no frame
# of this file.
def _agentenkit_prestarted():
    import os
    import sys

    def readn(n):
        b = b""
        while len(b) < n:
            c = os.read(0, n - len(b))
            if not c:
                raise SystemExit(0)
            b += c
        return b

    # Paid here, before the request: the first compile() of a process
    # costs about 45 ms in wasm, and the collector would otherwise walk every
    # object of the start again at each full collection and at exit.
    import gc
    compile("pass", "<string>", "exec")
    gc.collect()
    gc.freeze()
    f = [os.fsdecode(x) for x in readn(int.from_bytes(readn(8), "little")).split(b"\0")]
    kind, prog, cwd, target, argc = f[0], f[1], f[2], f[3], int(f[4])
    argv, orig, env = f[5:5 + argc], f[5 + argc], f[6 + argc:]
    try:
        os.chdir(cwd)
    except OSError:
        pass  # as sitecustomize: the folder is where CPython started
    want = dict(e.split("=", 1) for e in env if "=" in e)
    for k in list(os.environ):
        if k not in want:
            del os.environ[k]
    for k, v in want.items():
        if os.environ.get(k) != v:
            os.environ[k] = v
    # posix.environ is the environment as it was at start, which
    # os.environ was copied from: it must not show the one CPython was
    # started with either.
    import posix
    posix.environ.clear()
    posix.environ.update((os.fsencode(k), os.fsencode(v)) for k, v in want.items())
    g = sys.modules["__main__"].__dict__
    del g["_agentenkit_prestarted"]
    sys.argv = argv
    sys.orig_argv = orig.split("\x01")
    me = sys._getframe().f_code
    del f, env, want, argc, argv, orig, readn
    try:
        if kind == "c":
            sys.path[0] = ""
            exec(compile(target, "<string>", "exec"), g)
        elif kind == "f":
            sys.path[0] = os.path.dirname(target)
            try:
                with open(target, "rb") as fh:
                    src = fh.read()
            except OSError as e:
                sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n" % (prog, target, e.errno, e.strerror))
                raise SystemExit(2)
            g["__file__"] = target
            g["__cached__"] = None
            g["__loader__"] = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", target)
            exec(compile(src, target, "exec"), g)
        else:
            sys.path[0] = os.getcwd()
            import runpy
            runpy._run_module_as_main(target)
    except SystemExit:
        raise
    except BaseException as e:
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is me:
            tb = tb.tb_next
        e.__traceback__ = tb  # the hook prints the exception's own
        sys.excepthook(type(e), e, tb)
        del e, tb
        raise SystemExit(1)


_agentenkit_prestarted()
