/* SPDX-License-Identifier: MIT */
/* What a rank sends rank 0 when its run is over: its mode's exit status, its host,
 * the error it reported, how many of its steps started together with the others'
 * and its schema-2 document, in one message of bytes (MPI sends it as MPI_CHAR). */
#ifndef MEMBENCH_RANK_MESSAGE_H
#define MEMBENCH_RANK_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int exit_status;
    char *host;      /* never NULL after decoding */
    char *error;     /* NULL: none */
    char *document;  /* NULL: none; NUL-terminated, length document_len */
    size_t document_len;
    double started, ended; /* its measurement, Unix time in seconds (0: none) */
    int steps_together;    /* measured steps it started together with every other rank */
    int steps_lost_at;     /* the step whose common start timed out (-1: none did) */
} rank_message;

/* Allocated bytes (free them) and their length in *len; NULL: out of memory. */
char *rank_message_encode(const rank_message *m, size_t *len);
/* False when bytes are not a whole message (free m with rank_message_free either way). */
bool rank_message_decode(const char *bytes, size_t len, rank_message *m);
void rank_message_free(rank_message *m);

#endif
