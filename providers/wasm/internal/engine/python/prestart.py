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

    # Paid here, before the request: the first compile() of a process
    # costs about 45 ms in wasm, and the collector would otherwise walk every
    # object of the start again at each full collection and at exit.
    import gc
    compile("pass", "<string>", "exec")
    gc.collect()
    gc.freeze()
    def run():
        def readn(n):
            b = b""
            while len(b) < n:
                c = os.read(0, n - len(b))
                if not c:
                    raise SystemExit(0)
                b += c
            return b

        f = [os.fsdecode(x) for x in readn(int.from_bytes(readn(8), "little")).split(b"\0")]
        kind, prog, cwd, target, argc = f[0], f[1], f[2], f[3], int(f[4])
        argv, orig, env = f[5:5 + argc], f[5 + argc], f[6 + argc:]
        try:
            os.chdir(cwd)
        except OSError:
            pass  # as sitecustomize: the folder is where CPython started
        want = dict(e.split("=", 1) for e in env if "=" in e)
        # The control file's token (sitecustomize.py) is this request's,
        # not the environment's.
        site = sys.modules.get("sitecustomize")
        if site is not None:
            site._ctl_token = want.pop("AGENTENKIT_CTL", None)
            site._agentenkit_venv(want.pop("AGENTENKIT_PYTHON_EXE", ""))
        # os.environ and libc's environment become want's, as os.environ's
        # __delitem__ and __setitem__ would make them (its encoded dict and
        # putenv/unsetenv, the same changes in the same order), without
        # their calls per key: half a millisecond of every command in this
        # -O0 build went to the environment.
        data, enc = os.environ._data, os.fsencode
        new = {enc(k): enc(v) for k, v in want.items()}
        for k in [k for k in data if k not in new]:
            os.unsetenv(k)
            del data[k]
        for k, v in new.items():
            if data.get(k) != v:
                os.putenv(k, v)
                data[k] = v
        # posix.environ is the environment as it was at start, which
        # os.environ was copied from: it must not show the one CPython was
        # started with either.
        import posix
        posix.environ.clear()
        posix.environ.update(new)
        g = sys.modules["__main__"].__dict__
        del g["_agentenkit_prestarted"]
        sys.argv = argv
        sys.orig_argv = orig.split("\x01")
        me = sys._getframe().f_code
        del f, env, want, argc, argv, orig, readn, data, enc, new
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
                    # Linux's numbers, as the engine says it for a new
                    # CPython (missingScript)
                    num = {44: 2, 54: 20}.get(e.errno, e.errno)
                    sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n" % (prog, target, num, e.strerror))
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
            # PyErr_Print keeps it in sys.last_* before the hook prints it.
            if sys.version_info >= (3, 12):
                sys.last_exc = e
            sys.last_type, sys.last_value, sys.last_traceback = type(e), e, tb
            sys.excepthook(type(e), e, tb)
            # CPython's main ends by SIGINT after an uncaught
            # KeyboardInterrupt (exactly that class, not a subclass): on
            # WASI, with no kill(), with status 130 as a shell reports it.
            sigint = type(e) is KeyboardInterrupt
            del e, tb
            return sigint
        return None

    if sys.argv[1:] != ["agentenkit-template"]:
        # CPython's main finalises this interpreter when SystemExit leaves
        # this program: as after the command's own.
        sigint = run()
        # The start's objects, __main__'s globals among them, collectable
        # again for the finalisation.
        gc.unfreeze()
        if sigint is not None:
            raise SystemExit(130 if sigint else 1)
        return
    # A template (engine/clone.go): the engine copies this memory here and
    # clones it for each command, which runs _agentenkit_serve() in it. A
    # clone ends the process itself, as CPython's main would at this point.
    import builtins
    import time
    g = sys.modules["__main__"].__dict__
    # The interpreter's atexit callbacks, run at a clone's end as CPython's
    # finalisation runs them (whoever registered them, through whatever
    # module object). Imported here, not at each clone's end (about 0.6 ms
    # of every command), and left out of sys.modules when the start had
    # not imported it: the clone's sys.modules is a new CPython's.
    had_atexit = "atexit" in sys.modules
    import atexit
    if not had_atexit:
        del sys.modules["atexit"]

    def serve():
        del g["_agentenkit_serve"], g["_agentenkit_code"]
        if "random" in sys.modules:  # seeded once, in the template
            sys.modules["random"].seed()
        try:
            sigint = run()
            code = 0 if sigint is None else 1
        except SystemExit as e:
            sigint = None
            code = e.code
            if code is None:
                code = 0
            elif not isinstance(code, int):
                try:
                    sys.stderr.write(str(code) + "\n")
                except Exception:
                    pass
                code = 1
        if "threading" in sys.modules:
            try:
                sys.modules["threading"]._shutdown()
            except Exception:
                pass
        atexit._run_exitfuncs()
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except Exception:
                code = 120
        # Then, as CPython's finalisation clears __main__'s dict
        # (_PyModule_ClearDict: names with one leading underscore set to
        # None, then every name but __builtins__), what only the command's
        # globals held is let go: an unclosed file is flushed and closed,
        # __del__ runs. What it printed is flushed again.
        main = sys.modules.get("__main__")  # python3 -m's own
        d = getattr(main, "__dict__", g)
        for first in (True, False):
            for k in list(d):
                if k != "__builtins__" and (not first or k[:1] == "_" and k[1:2] != "_"):
                    d[k] = None
        del main, d
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except Exception:
                pass
        os._exit(130 if sigint else code)

    g["_agentenkit_serve"] = serve
    g["_agentenkit_code"] = compile("_agentenkit_serve()", "<agentenkit>", "exec")
    sys.stdout.flush()
    sys.stderr.flush()
    os.write(2, b"\0agentenkit-snapshot %d %d %d %d\n" % (id(builtins), id(exec), id(g["_agentenkit_code"]), id(g)))
    time.time()  # the engine takes its copy in this call: the GIL is held
    os._exit(0)


_agentenkit_prestarted()
