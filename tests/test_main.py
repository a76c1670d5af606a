"""The demo command prints its walk-through."""
import io

from transpile.__main__ import demo, main


def test_demo_walkthrough():
    buf = io.StringIO()
    demo(out=buf)
    text = buf.getvalue()
    assert "{ lambda ; a:f32[5]. let" in text
    assert "traced with JitTracer(float32[5])" in text
    assert "TracerBoolConversionError" in text
    assert "g(2.0) = 2.0, g(-3.0) = 3.0" in text  # the lax.cond remedy
    assert "/* d = cond c a */" in text and "if (C[0] > 0) {" in text
    assert "eager" in text and "jit" in text
    assert "static void jit_selu_k0(const float *restrict A, float *restrict F)" in text
    assert "fmaf(" in text  # alpha * exp(x) - alpha, fused as XLA fuses it
    assert "const float c = tp_xla_exp_f32(a);" in text


def test_main_rejects_unknown_command(capsys):
    try:
        main(["nope"])
    except SystemExit as e:
        assert e.code != 0
