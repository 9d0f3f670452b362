# TRI007 under a constexpr flag a launch passes as True: the NVIDIA-only register read
# reaches the AMD backend, which has no such register.
import triton
import triton.language as tl


@triton.jit
def stamp(t_ptr, x_ptr, TIMED: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)
    if TIMED:
        tl.store(t_ptr, tl.extra.cuda.globaltimer())


def launch(t, x):
    stamp[(1,)](t, x, TIMED=True, BLOCK=256)


# The harness's table names the kernel and the flag as strings, so that the case file has no
# use of either besides the launch above.
CASE = {"kernel": globals()["stamp"],
        "signature": dict(t_ptr="*i64", x_ptr="*i32", TIMED="constexpr", BLOCK="constexpr"),
        "constexprs": dict(TIMED=True, BLOCK=256), "options": dict(num_warps=4)}
