/* SPDX-License-Identifier: MIT */
/* MADV_POPULATE_WRITE over a fresh mapping from one thread or several, each a slice
 * (issue 45 item 5, BENCHMARKS "The latency curve's first touch on two CPUs"), GB/s.
 *   cc -O2 -pthread -o /tmp/populate_threads bench/populate_threads.c
 *   for m in "1 1" "1 2"; do flock -x /tmp/bench.lock /tmp/populate_threads $m 8; sleep 5; done
 * Arguments: MODE (0 a write a page, 1 MADV_POPULATE_WRITE), THREADS, GIB. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static size_t B;
struct arg{char*p;size_t n;int mode;};
static void*toucher(void*a_){struct arg*a=a_; if(a->mode==1){madvise(a->p,a->n,MADV_POPULATE_WRITE);} else for(size_t i=0;i<a->n;i+=4096)a->p[i]=1; return 0;}
int main(int argc,char**argv){if(argc!=4||atoi(argv[2])<1||atoi(argv[2])>8){fprintf(stderr,"usage: populate_threads MODE THREADS(1-8) GIB\n");return 2;}int mode=atoi(argv[1]),thr=atoi(argv[2]); B=(size_t)atol(argv[3])<<30;
 char*p=mmap(0,B,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
 double t0=now(); pthread_t th[8]; struct arg a[8];
 for(int t=0;t<thr;t++){a[t]=(struct arg){p+B/thr*t,B/thr,mode}; pthread_create(&th[t],0,toucher,&a[t]);}
 for(int t=0;t<thr;t++)pthread_join(th[t],0);
 double dt=now()-t0; printf("mode %d threads %d: %.2f GB/s\n",mode,thr,B/dt/1e9);}
