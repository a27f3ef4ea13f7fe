/* SPDX-License-Identifier: MIT */
/* Which line of each 256-byte chunk a TLB-local chase visits (issue 45 item 4,
 * BENCHMARKS "The TLB-local chase's line within its chunk"): 1 GiB of 4 KiB pages,
 * random within 256 KiB groups, one node per 256 bytes, best of 5 x 3M loads, ns a load.
 *   cc -O2 -o /tmp/chase_line_offset bench/chase_line_offset.c
 *   for m in 0 1 2 3; do flock -x /tmp/bench.lock /tmp/chase_line_offset $m; done
 * MODE: 0 always the first line (membench before 2026-12-02), 1 a random 8-byte slot
 * (multichase's mixer), 2 a random line, 3 a line from a multiplicative hash. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
static uint64_t s=88172645463325252ULL; static uint64_t rnd(void){s^=s<<13;s^=s>>7;s^=s<<17;return s;}
static void shuffle(uint32_t*a,size_t n){for(size_t i=n-1;i>0;i--){size_t j=rnd()%(i+1);uint32_t t=a[i];a[i]=a[j];a[j]=t;}}
int main(int argc,char**argv){
  if(argc!=2){fprintf(stderr,"usage: chase_line_offset MODE\n");return 2;}
  size_t bytes=1ull<<30, group=256*1024, chunk=256; int mode=atoi(argv[1]);
  char*b=mmap(0,bytes,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0); madvise(b,bytes,MADV_NOHUGEPAGE); memset(b,0,bytes);
  size_t ng=bytes/group, nc=group/chunk; uint32_t*gp=malloc(ng*4),*cp=malloc(nc*4);
  for(size_t i=0;i<ng;i++)gp[i]=i;
  shuffle(gp,ng);
  void**prev=0; char*first=0;
  for(size_t gi=0;gi<ng;gi++){ for(size_t c=0;c<nc;c++)cp[c]=c; shuffle(cp,nc);
    for(size_t c=0;c<nc;c++){ size_t ch=(size_t)gp[gi]*nc+cp[c]; size_t off=0;
      if(mode==1) off=(rnd()%32)*8; else if(mode==2) off=(rnd()%4)*64; else if(mode==3) off=((ch*0x9E3779B97F4A7C15ULL)>>62)*64;
      char*node=b+ch*chunk+off; if(prev)*prev=node; else first=node; prev=(void**)node; } }
  *prev=first;
  void*p=first; for(size_t i=0;i<4000000;i++)p=*(void**)p;
  double best=1e9; for(int r=0;r<5;r++){struct timespec t0,t1;clock_gettime(CLOCK_MONOTONIC,&t0); size_t n=3000000; for(size_t i=0;i<n;i++)p=*(void**)p; clock_gettime(CLOCK_MONOTONIC,&t1);
    double ns=((t1.tv_sec-t0.tv_sec)*1e9+(t1.tv_nsec-t0.tv_nsec))/n; if(ns<best)best=ns;}
  printf("mode %d: %.1f ns (%p)\n",mode,best,p);}
