/* tp_math_lib.h: the transcendentals of tp_math.h and tp_xla_math.h as functions
 * compiled once per machine instead of inlined into every generated library.
 *
 * Why: inlined, each call of sin, erf or erf_inv is a few hundred instructions that gcc
 * optimises and vectorises again in every library and at every use (about 20 ms of
 * compile time per sin call; a 400-step chain of them took 14 s). Here each function
 * is compiled once (backend/runtime_lib.py builds an object from this header with
 * TP_RUNTIME_LIB_DEFINE, cached per compiler, flags and header contents, and links it
 * into the libraries that use it) with SIMD clones (`omp declare simd`), so a
 * `#pragma omp simd` loop that calls one is still vectorised: it calls the clone of its
 * vector width (_ZGV...) once per vector. Results are bit-identical to the inline
 * definitions: the clones are the same code.
 *
 * A call costs a little run time (all vector registers are caller-saved): about 5% for
 * sin, 15-30% for the cheap functions (exp, log, tanh...), whose inline code is short and
 * quick to compile. So there are two tiers. Generated code includes this header after
 * tp_codegen.h; it does nothing unless the build defines
 *   TP_RUNTIME_LIB        the heavy tier (TPX_HEAVY) becomes the extern tpx_<fn>;
 *   TP_RUNTIME_LIB_ALL    the cheap tier (TPX_CHEAP) too: for programs with so many
 *                         calls that compile time outweighs the calls' cost.
 * Exported sources and CUDA keep the inline definitions.
 */
#ifndef TP_MATH_LIB_H
#define TP_MATH_LIB_H

#if !defined(__CUDACC__) && (defined(TP_RUNTIME_LIB) || defined(TP_RUNTIME_LIB_DEFINE))

/* F(name without tp_, C type) for every function compiled into the object. */
#define TPX_HEAVY(F) \
    F(asinh_f32, float) \
    F(asinh_f64, double) \
    F(atan_f32, float) \
    F(atan_f64, double) \
    F(cos_f32, float) \
    F(cos_f64, double) \
    F(erf_f32, float) \
    F(erf_f64, double) \
    F(erf_inv_f32, float) \
    F(erf_inv_f64, double) \
    F(sin_f32, float) \
    F(sin_f64, double) \
    F(tan_f32, float) \
    F(tan_f64, double) \
    F(xla_erf_inv_f32, float) \
    F(xla_erf_inv_f64, double)
#define TPX_CHEAP(F) \
    F(cosh_f32, float) \
    F(cosh_f64, double) \
    F(exp2_f32, float) \
    F(exp2_f64, double) \
    F(exp_f32, float) \
    F(exp_f64, double) \
    F(expm1_f32, float) \
    F(expm1_f64, double) \
    F(log1p_f32, float) \
    F(log1p_f64, double) \
    F(log_f32, float) \
    F(log_f64, double) \
    F(logistic_f32, float) \
    F(logistic_f64, double) \
    F(sinh_f32, float) \
    F(sinh_f64, double) \
    F(tanh_f32, float) \
    F(tanh_f64, double) \
    F(xla_exp_f32, float) \
    F(xla_log1p_f32, float) \
    F(xla_log1p_f64, double) \
    F(xla_log_f32, float) \
    F(xla_log_f64, double) \
    F(xla_logistic_f32, float) \
    F(xla_tanh_f32, float)

/* const: no side effect we observe (errno is off), so calls are CSE'd and kept out of
 * branches (a call under a condition would stop the loop's vectorisation); hidden: a
 * direct call, no PLT, and no clash between the libraries of one process. */
#define TPX_ATTR __attribute__((const, visibility("hidden")))

#ifdef TP_RUNTIME_LIB_DEFINE
#define TPX_DEFINE(fn, T) \
    _Pragma("omp declare simd notinbranch") \
    TPX_ATTR T tpx_##fn(T x) { return tp_##fn(x); }
TPX_HEAVY(TPX_DEFINE)
TPX_CHEAP(TPX_DEFINE)
#else
#define TPX_DECLARE(fn, T) \
    _Pragma("omp declare simd notinbranch") \
    TPX_ATTR T tpx_##fn(T x);
TPX_HEAVY(TPX_DECLARE)
#define tp_asinh_f32 tpx_asinh_f32
#define tp_asinh_f64 tpx_asinh_f64
#define tp_atan_f32 tpx_atan_f32
#define tp_atan_f64 tpx_atan_f64
#define tp_cos_f32 tpx_cos_f32
#define tp_cos_f64 tpx_cos_f64
#define tp_erf_f32 tpx_erf_f32
#define tp_erf_f64 tpx_erf_f64
#define tp_erf_inv_f32 tpx_erf_inv_f32
#define tp_erf_inv_f64 tpx_erf_inv_f64
#define tp_sin_f32 tpx_sin_f32
#define tp_sin_f64 tpx_sin_f64
#define tp_tan_f32 tpx_tan_f32
#define tp_tan_f64 tpx_tan_f64
#define tp_xla_erf_inv_f32 tpx_xla_erf_inv_f32
#define tp_xla_erf_inv_f64 tpx_xla_erf_inv_f64
#ifdef TP_RUNTIME_LIB_ALL
TPX_CHEAP(TPX_DECLARE)
#define tp_cosh_f32 tpx_cosh_f32
#define tp_cosh_f64 tpx_cosh_f64
#define tp_exp2_f32 tpx_exp2_f32
#define tp_exp2_f64 tpx_exp2_f64
#define tp_exp_f32 tpx_exp_f32
#define tp_exp_f64 tpx_exp_f64
#define tp_expm1_f32 tpx_expm1_f32
#define tp_expm1_f64 tpx_expm1_f64
#define tp_log1p_f32 tpx_log1p_f32
#define tp_log1p_f64 tpx_log1p_f64
#define tp_log_f32 tpx_log_f32
#define tp_log_f64 tpx_log_f64
#define tp_logistic_f32 tpx_logistic_f32
#define tp_logistic_f64 tpx_logistic_f64
#define tp_sinh_f32 tpx_sinh_f32
#define tp_sinh_f64 tpx_sinh_f64
#define tp_tanh_f32 tpx_tanh_f32
#define tp_tanh_f64 tpx_tanh_f64
#define tp_xla_exp_f32 tpx_xla_exp_f32
#define tp_xla_log1p_f32 tpx_xla_log1p_f32
#define tp_xla_log1p_f64 tpx_xla_log1p_f64
#define tp_xla_log_f32 tpx_xla_log_f32
#define tp_xla_log_f64 tpx_xla_log_f64
#define tp_xla_logistic_f32 tpx_xla_logistic_f32
#define tp_xla_tanh_f32 tpx_xla_tanh_f32
#endif
#endif

#endif
#endif /* TP_MATH_LIB_H */
