// common/units_latin1.h: physical constants of an older code base, saved in ISO-8859-1
// (this header's comments are Latin-1, not UTF-8). Unités : µm, °K, Å.
#pragma once

#define ANGSTROM_PER_NM 10.0f   /* 1 nm = 10 Å */
#define MICRON_PER_MM 1000.0f   /* 1 mm = 1000 µm */
#define TWO_PI_F 6.28318530717958647692f  /* 2·pi */
