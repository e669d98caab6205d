#include "textflag.h"

// func clockGettime(id int64, ts *[2]int64) int64
TEXT ·clockGettime(SB),NOSPLIT,$0-24
	MOVQ	$228, AX // clock_gettime(id, ts)
	MOVQ	id+0(FP), DI
	MOVQ	ts+8(FP), SI
	SYSCALL
	MOVQ	AX, ret+16(FP)
	RET
