/* SPDX-License-Identifier: MIT */
/* OpenMP's placement syntax, read the way an OpenMP runtime reads it (sc-membench
 * honours both variables, so we must too): OMP_PLACES text becomes a list of places
 * (sets of usable CPUs), OMP_PROC_BIND text becomes a bind kind. Only the syntax
 * and what the names mean on this topology live here; which thread goes to which
 * place is the placement policy's job (plan/placement.c). */
#ifndef MEMBENCH_OMP_PLACES_H
#define MEMBENCH_OMP_PLACES_H

#include <stdbool.h>
#include <stddef.h>

#include "topology/topology.h"
#include "util/cpu_list.h"

#define OMP_MAX_PLACES 4096 /* more places than this are refused */

/* Places in the order given; each holds only CPUs this process may use, and a
 * place left with none is dropped. */
typedef struct {
    cpu_list *lists;
    size_t n;
} omp_place_list;

/* OMP_PLACES, with GNU libgomp's syntax and meaning: an abstract name (threads,
 * cores, sockets, numa_domains, ll_caches; any case), optionally with a count
 * ("cores(4)": the first four), or explicit places "{0,1},{2:2},{0:4:2}" (CPU
 * intervals lo:length[:stride], stride 0 or negative too), intervals of places
 * ("{0:2}:3:2" is {0,1},{2,3},{4,5}), CPUs excluded from a place ("{0:8,!3}",
 * applied after its inclusions) and places removed ("{0},{1},!{0}": the first
 * earlier place equal to it). Blanks may surround every token, numbers may carry
 * a '+'. out starts empty. On what libgomp rejects (or when no usable CPU is left)
 * returns false with a one-line message in err, naming the text, and out empty. */
bool omp_places_parse(const topology *t, const char *text, omp_place_list *out, char *err, size_t errlen);

/* Appends a place of count CPUs (count 0: nothing appended, true). False when out
 * of memory or at OMP_MAX_PLACES. */
bool omp_places_add(omp_place_list *pl, const int *ids, size_t count);
void omp_places_free(omp_place_list *pl);

typedef enum {
    OMP_BIND_SPREAD,  /* "spread", "true" */
    OMP_BIND_CLOSE,   /* "close" */
    OMP_BIND_PRIMARY, /* "primary", "master" (its older name) */
    OMP_BIND_FALSE    /* "false": threads are not bound */
} omp_bind;

/* OMP_PROC_BIND, any case, blanks around words. A nested list ("spread,close")
 * describes inner teams; only its first level applies to our one team; true and
 * false stand only alone. On bad text (an empty one too) returns false with a
 * one-line message in err. */
bool omp_proc_bind_parse(const char *text, omp_bind *out, char *err, size_t errlen);

#endif
