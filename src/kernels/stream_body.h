/* STREAM kernels for one ISA, included by stream_kernels_x86.c after it defines
 *   SB_VEC, SB_LANES, SB_TARGET, SB_NAME(x), SB_LOAD(p), SB_STORE(p, v),
 *   SB_LOADU(p), SB_MUL(a, b), SB_ADD(a, b), SB_SET1(x),
 * SB_PUT(p, v) (a regular or a streaming store) and SB_DONE() (the fence that makes
 * streaming stores visible, or nothing).
 * Ends that are not vector-aligned are done in scalar code. */
#define SB_ALIGNED(p) (((uintptr_t)(p) % (SB_LANES * sizeof(double))) == 0)

/* Advances lo to the first index where `dst` is vector-aligned. */
#define SB_HEAD(dst, expr)                                                                                            \
    for (; lo < hi && !SB_ALIGNED(&(dst)[lo]); lo++)                                                                  \
        (dst)[lo] = (expr)
#define SB_TAIL(dst, expr)                                                                                            \
    for (; lo < hi; lo++)                                                                                             \
        (dst)[lo] = (expr)

static SB_TARGET void SB_NAME(copy)(const stream_arrays *s, size_t lo, size_t hi)
{
    double *a = s->a, *c = s->c;
    SB_HEAD(c, a[lo]);
    for (; lo + SB_LANES <= hi; lo += SB_LANES)
        SB_PUT(&c[lo], SB_LOADU(&a[lo]));
    SB_TAIL(c, a[lo]);
    SB_DONE();
}

static SB_TARGET void SB_NAME(scale)(const stream_arrays *s, size_t lo, size_t hi)
{
    double *b = s->b, *c = s->c, q = s->scalar;
    SB_VEC vq = SB_SET1(q);
    SB_HEAD(b, q * c[lo]);
    for (; lo + SB_LANES <= hi; lo += SB_LANES)
        SB_PUT(&b[lo], SB_MUL(vq, SB_LOADU(&c[lo])));
    SB_TAIL(b, q * c[lo]);
    SB_DONE();
}

static SB_TARGET void SB_NAME(add)(const stream_arrays *s, size_t lo, size_t hi)
{
    double *a = s->a, *b = s->b, *c = s->c;
    SB_HEAD(c, a[lo] + b[lo]);
    for (; lo + SB_LANES <= hi; lo += SB_LANES)
        SB_PUT(&c[lo], SB_ADD(SB_LOADU(&a[lo]), SB_LOADU(&b[lo])));
    SB_TAIL(c, a[lo] + b[lo]);
    SB_DONE();
}

static SB_TARGET void SB_NAME(triad)(const stream_arrays *s, size_t lo, size_t hi)
{
    double *a = s->a, *b = s->b, *c = s->c, q = s->scalar;
    SB_VEC vq = SB_SET1(q);
    SB_HEAD(a, b[lo] + q * c[lo]);
    for (; lo + SB_LANES <= hi; lo += SB_LANES)
        SB_PUT(&a[lo], SB_ADD(SB_LOADU(&b[lo]), SB_MUL(vq, SB_LOADU(&c[lo]))));
    SB_TAIL(a, b[lo] + q * c[lo]);
    SB_DONE();
}

#undef SB_HEAD
#undef SB_TAIL
#undef SB_ALIGNED
