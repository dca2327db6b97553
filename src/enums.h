/* SPDX-License-Identifier: MIT */
/*
 * DirectML's enums as the integers callers store in them, for the C and the
 * C++ layer alike (internal). In C++, loading an enum object that holds a
 * value outside the enum's range is undefined (UBSan: "load of value 9,
 * which is not a valid value for type 'DML_GRAPH_NODE_TYPE'"), and a caller
 * may store any value there: every enum a caller passes is read as its
 * integer (com/object.h's raw() in C++, a cast in C), range-checked, and
 * only then used as the enum.
 */
#ifndef DMLI_ENUMS_H
#define DMLI_ENUMS_H

#include <stdbool.h>
#include <stdint.h>

/* One of DirectML's feature levels up to dmlcl's (DMLCL_FEATURE_LEVEL, 6.4). */
static inline bool dmli_feature_level_defined(uint32_t level)
{
    switch (level) {
    case 0x1000: /* DML_FEATURE_LEVEL_1_0 */
    case 0x2000:
    case 0x2100:
    case 0x3000:
    case 0x3100:
    case 0x4000:
    case 0x4100:
    case 0x5000:
    case 0x5100:
    case 0x5200:
    case 0x6000:
    case 0x6100:
    case 0x6200:
    case 0x6300:
    case 0x6400: return true;
    default: return false;
    }
}

/* A level of DirectML's form (0xMm00) above dmlcl's: a later DirectML's, not supported here. */
static inline bool dmli_feature_level_later(uint32_t level)
{
    return level > 0x6400 && level <= 0xFF00 && (level & 0xFF) == 0;
}

#endif /* DMLI_ENUMS_H */
