# TRI007: tl.extra.cuda.globaltimer reads an NVIDIA special register.
import triton
import triton.language as tl


@triton.jit
def stamp(t_ptr):
    tl.store(t_ptr, tl.extra.cuda.globaltimer())


CASE = {"kernel": stamp, "signature": {"t_ptr": "*i64"}, "constexprs": {},
        "options": {"num_warps": 1}}
