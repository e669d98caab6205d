#include "textflag.h"

// func prlimitNofile(lim *[2]uint64) int64
TEXT ·prlimitNofile(SB),NOSPLIT,$0-16
	MOVQ	$302, AX // prlimit64(0, RLIMIT_NOFILE, NULL, lim)
	MOVQ	$0, DI
	MOVQ	$7, SI
	MOVQ	$0, DX
	MOVQ	lim+0(FP), R10
	SYSCALL
	MOVQ	AX, ret+8(FP)
	RET
