/* dmlcl/ext_gather.h: a gather with BatchDimensionCount and an out-of-range policy (CLAMP / ZERO / ERROR) (DMLCL_OPERATOR_GATHER1). Included by dmlcl/extensions.h. */
#ifndef DMLCL_EXT_GATHER_H
#define DMLCL_EXT_GATHER_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_GATHER_H */
