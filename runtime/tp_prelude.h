/* tp_prelude.h: what every generated C library includes first.
 *
 * One header so that the build can precompile it (backend/runtime_lib.py makes a gcc
 * precompiled header of it once per compiler, flags and runtime version): parsing these
 * headers' inline functions was about a quarter of a small library's compile time. The
 * precompiled copy is used only where gcc finds it valid for the build's flags and
 * macros; anywhere else, and with other compilers, this file is read as it stands. */
#ifndef TP_PRELUDE_H
#define TP_PRELUDE_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"
#include "tp_codegen.h"

#endif /* TP_PRELUDE_H */
