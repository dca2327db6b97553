/* SPDX-License-Identifier: MIT */
/* A minimal check harness for the header tests (no C++ test framework needed). */
#ifndef DMLCL_TESTS_HEADERS_CHECKS_H
#define DMLCL_TESTS_HEADERS_CHECKS_H

#include <cstdio>

inline int checks_passed = 0;
inline int checks_failed = 0;

#define CHECK(cond, what)                                                          \
    do {                                                                           \
        if (cond) {                                                                \
            ++checks_passed;                                                       \
        } else {                                                                   \
            ++checks_failed;                                                       \
            std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, what); \
        }                                                                          \
    } while (0)

inline int checks_report(const char *suite)
{
    std::printf("%s: %d passed, %d failed\n", suite, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif
