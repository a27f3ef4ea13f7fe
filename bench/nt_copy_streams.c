/* SPDX-License-Identifier: MIT */
/* Copy variants side by side (issue 45 item 3, BENCHMARKS "Copy against STREAM's
 * memcpy"): 2 threads on CPUs 0 and 1, each copying MIB MiB, best of 10, GB/s counted
 * as STREAM counts Copy (bytes read + written).
 *   cc -O2 -pthread -o /tmp/nt_copy_streams bench/nt_copy_streams.c
 *   for v in 0 1 2 3 4 5 6 7 8 9 10 11; do flock -x /tmp/bench.lock /tmp/nt_copy_streams 512 $v; done
 * VARIANT: 0 glibc memcpy, 1 AVX-512 non-temporal (one stream), 2 AVX2 non-temporal,
 * 3 AVX2 non-temporal four streams a page apart with prefetch, 4 the same with two
 * streams, 5 AVX2 non-temporal one stream with prefetch, 6 rep movsb, 7 AVX-512
 * four streams with prefetch, 8 AVX-512 regular stores four streams, 9 AVX-512
 * regular stores one stream, 10 AVX-512 non-temporal four streams, 11 eight streams. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <stdint.h>
static size_t N; static int variant; static int nthr=2;
static char *src[8], *dst[8];
static pthread_barrier_t bar;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((target("avx512f"))) static void c512(char*d,const char*s,size_t n){for(size_t i=0;i<n;i+=64)_mm512_stream_pd((double*)(d+i),_mm512_loadu_pd((const double*)(s+i)));_mm_sfence();}
__attribute__((target("avx2"))) static void c256(char*d,const char*s,size_t n){for(size_t i=0;i<n;i+=32)_mm256_stream_pd((double*)(d+i),_mm256_loadu_pd((const double*)(s+i)));_mm_sfence();}
/* 4 pages interleaved, prefetch, NT stores, like glibc's large copy idea */
__attribute__((target("avx2"))) static void c4x(char*d,const char*s,size_t n){
  const size_t P=4096;
  for(size_t base=0;base<n;base+=4*P){
    for(size_t off=0;off<P;off+=128){
      for(int k=0;k<4;k++){
        const char*sp=s+base+k*P+off; char*dp=d+base+k*P+off;
        _mm_prefetch(sp+256,_MM_HINT_T0);_mm_prefetch(sp+256+64,_MM_HINT_T0);
        __m256d a=_mm256_loadu_pd((const double*)sp),b=_mm256_loadu_pd((const double*)(sp+32)),c=_mm256_loadu_pd((const double*)(sp+64)),e=_mm256_loadu_pd((const double*)(sp+96));
        _mm256_stream_pd((double*)dp,a);_mm256_stream_pd((double*)(dp+32),b);_mm256_stream_pd((double*)(dp+64),c);_mm256_stream_pd((double*)(dp+96),e);
      }
    }
  }
  _mm_sfence();}
__attribute__((target("avx512f"))) static void c4x512(char*d,const char*s,size_t n){
  const size_t P=4096;
  for(size_t base=0;base<n;base+=4*P){
    for(size_t off=0;off<P;off+=128){
      for(int k=0;k<4;k++){
        const char*sp=s+base+k*P+off; char*dp=d+base+k*P+off;
        _mm_prefetch(sp+256,_MM_HINT_T0);_mm_prefetch(sp+256+64,_MM_HINT_T0);
        __m512d a=_mm512_loadu_pd((const double*)sp),b=_mm512_loadu_pd((const double*)(sp+64));
        _mm512_stream_pd((double*)dp,a);_mm512_stream_pd((double*)(dp+64),b);
      }
    }
  }
  _mm_sfence();}
/* 2 pages interleaved */
__attribute__((target("avx2"))) static void c2x(char*d,const char*s,size_t n){
  const size_t P=4096;
  for(size_t base=0;base<n;base+=2*P){
    for(size_t off=0;off<P;off+=128){
      for(int k=0;k<2;k++){
        const char*sp=s+base+k*P+off; char*dp=d+base+k*P+off;
        _mm_prefetch(sp+256,_MM_HINT_T0);_mm_prefetch(sp+256+64,_MM_HINT_T0);
        __m256d a=_mm256_loadu_pd((const double*)sp),b=_mm256_loadu_pd((const double*)(sp+32)),c=_mm256_loadu_pd((const double*)(sp+64)),e=_mm256_loadu_pd((const double*)(sp+96));
        _mm256_stream_pd((double*)dp,a);_mm256_stream_pd((double*)(dp+32),b);_mm256_stream_pd((double*)(dp+64),c);_mm256_stream_pd((double*)(dp+96),e);
      }
    }
  }
  _mm_sfence();}
/* linear with prefetch, 128 B unroll */
__attribute__((target("avx2"))) static void c1p(char*d,const char*s,size_t n){
  for(size_t i=0;i<n;i+=128){const char*sp=s+i;char*dp=d+i;
    _mm_prefetch(sp+512,_MM_HINT_T0);_mm_prefetch(sp+512+64,_MM_HINT_T0);
    __m256d a=_mm256_loadu_pd((const double*)sp),b=_mm256_loadu_pd((const double*)(sp+32)),c=_mm256_loadu_pd((const double*)(sp+64)),e=_mm256_loadu_pd((const double*)(sp+96));
    _mm256_stream_pd((double*)dp,a);_mm256_stream_pd((double*)(dp+32),b);_mm256_stream_pd((double*)(dp+64),c);_mm256_stream_pd((double*)(dp+96),e);}
  _mm_sfence();}
__attribute__((target("avx512f"))) static void r4x512(char*d,const char*s,size_t n){
  const size_t P=4096;
  for(size_t base=0;base<n;base+=4*P){
    for(size_t off=0;off<P;off+=128){
      for(int k=0;k<4;k++){
        const char*sp=s+base+k*P+off; char*dp=d+base+k*P+off;
        __m512d a=_mm512_loadu_pd((const double*)sp),b=_mm512_loadu_pd((const double*)(sp+64));
        _mm512_store_pd((double*)dp,a);_mm512_store_pd((double*)(dp+64),b);
      }
    }
  }}
__attribute__((target("avx512f"))) static void r512(char*d,const char*s,size_t n){for(size_t i=0;i<n;i+=64)_mm512_store_pd((double*)(d+i),_mm512_loadu_pd((const double*)(s+i)));}
__attribute__((target("avx512f"))) static void c4x512np(char*d,const char*s,size_t n){
  const size_t P=4096;
  for(size_t base=0;base<n;base+=4*P){
    for(size_t off=0;off<P;off+=128){
      for(int k=0;k<4;k++){
        const char*sp=s+base+k*P+off; char*dp=d+base+k*P+off;
        __m512d a=_mm512_loadu_pd((const double*)sp),b=_mm512_loadu_pd((const double*)(sp+64));
        _mm512_stream_pd((double*)dp,a);_mm512_stream_pd((double*)(dp+64),b);
      }
    }
  }
  _mm_sfence();}
__attribute__((target("avx512f"))) static void c8x512(char*d,const char*s,size_t n){
  const size_t P=4096;
  for(size_t base=0;base<n;base+=8*P){
    for(size_t off=0;off<P;off+=128){
      for(int k=0;k<8;k++){
        const char*sp=s+base+k*P+off; char*dp=d+base+k*P+off;
        __m512d a=_mm512_loadu_pd((const double*)sp),b=_mm512_loadu_pd((const double*)(sp+64));
        _mm512_stream_pd((double*)dp,a);_mm512_stream_pd((double*)(dp+64),b);
      }
    }
  }
  _mm_sfence();}
static void rmovsb(char*d,const char*s,size_t n){__asm__ volatile("rep movsb":"+D"(d),"+S"(s),"+c"(n)::"memory");}
static double best[16];
static void *worker(void*arg){int t=(int)(intptr_t)arg; cpu_set_t c;CPU_ZERO(&c);CPU_SET(t,&c);pthread_setaffinity_np(pthread_self(),sizeof c,&c);
  memset(src[t],1,N);memset(dst[t],2,N);
  for(int r=0;r<10;r++){pthread_barrier_wait(&bar);double t0=now();
    switch(variant){case 0:memcpy(dst[t],src[t],N);break;case 1:c512(dst[t],src[t],N);break;case 2:c256(dst[t],src[t],N);break;case 3:c4x(dst[t],src[t],N);break;case 4:c2x(dst[t],src[t],N);break;case 5:c1p(dst[t],src[t],N);break;case 6:rmovsb(dst[t],src[t],N);break;case 7:c4x512(dst[t],src[t],N);break;case 8:r4x512(dst[t],src[t],N);break;case 9:r512(dst[t],src[t],N);break;case 10:c4x512np(dst[t],src[t],N);break;case 11:c8x512(dst[t],src[t],N);break;}
    pthread_barrier_wait(&bar);double dt=now()-t0; if(t==0){double bw=2.0*N*nthr/dt/1e9; if(bw>best[variant])best[variant]=bw;}}
  return 0;}
int main(int argc,char**argv){if(argc!=3){fprintf(stderr,"usage: nt_copy_streams MIB VARIANT\n");return 2;}N=(size_t)atol(argv[1])<<20; variant=atoi(argv[2]);
  for(int t=0;t<nthr;t++){src[t]=aligned_alloc(4096,N);dst[t]=aligned_alloc(4096,N);}
  pthread_barrier_init(&bar,0,nthr);pthread_t th[8];
  for(int t=0;t<nthr;t++)pthread_create(&th[t],0,worker,(void*)(intptr_t)t);
  for(int t=0;t<nthr;t++)pthread_join(th[t],0);
  printf("variant %d best %.1f GB/s\n",variant,best[variant]);}
