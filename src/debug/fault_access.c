/* SPDX-License-Identifier: MIT */
/*
 * Whether a trapped access was a read or a write, from what the signal
 * frame holds. x86 says it in the page-fault error code. arm64 says it in
 * the data abort's syndrome (ESR_EL1.WnR), which the kernel puts in the
 * frame's ESR record; where there is none (qemu-user gives none), the
 * faulting instruction itself says: its class and its load bit. RISC-V
 * gives no cause in the frame at all: the instruction at the PC says,
 * whether it is a full-size or a compressed one.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include "checker.h"

#if defined(__aarch64__)
/* The records of the frame's __reserved area (the kernel's struct _aarch64_ctx and esr_context). */
struct frame_record {
	uint32_t magic;
	uint32_t size;
};
#define ESR_RECORD_MAGIC 0x45535201u
#define ESR_EC(esr) (((esr) >> 26) & 0x3fu)
#define ESR_EC_DABT_LOW 0x24u /* a data abort from user space */
#define ESR_WNR (1u << 6)
#define ESR_CM (1u << 8)

static int from_syndrome(const mcontext_t *mc)
{
	const uint8_t *at = (const uint8_t *)mc->__reserved, *end = at + sizeof(mc->__reserved);

	while (at + sizeof(struct frame_record) <= end) {
		struct frame_record r;
		uint64_t esr;

		memcpy(&r, at, sizeof(r));
		if (!r.magic || r.size < sizeof(r) || r.size > (size_t)(end - at))
			break;
		if (r.magic == ESR_RECORD_MAGIC && r.size >= sizeof(r) + sizeof(esr)) {
			memcpy(&esr, at + sizeof(r), sizeof(esr));
			/* A cache maintenance fault sets WnR without writing (Linux's is_write_abort()). */
			if (ESR_EC(esr) == ESR_EC_DABT_LOW)
				return (esr & ESR_WNR) && !(esr & ESR_CM) ? 1 : 0;
			return -1;
		}
		at += r.size;
	}
	return -1;
}

/*
 * The A64 load/store classes, by their fixed bits: the load bit is 22 in
 * every class but the single-register ones, whose opc (bits 23:22) is 00
 * only for a store. An atomic read-modify-write writes.
 */
static int from_instruction(uint32_t insn)
{
	if ((insn & 0x0a000000u) != 0x08000000u)
		return -1; /* not a load or a store */
	if ((insn & 0x3fa00000u) == 0x08a00000u || (insn & 0xbfa00000u) == 0x08200000u)
		return 1; /* CAS, CASP: bit 22 is acquire there, and they write */
	if ((insn & 0x3ffffc00u) == 0x38bfc000u)
		return 0; /* LDAPR, in the atomics' encoding space */
	if ((insn & 0x3b200c00u) == 0x38200000u)
		return 1; /* LDADD, SWP...: atomics write */
	if ((insn & 0x38000000u) == 0x38000000u) {
		if (insn & (1u << 26))
			return (insn & (1u << 22)) ? 0 : 1; /* SIMD register: opc 10 stores a Q register */
		return ((insn >> 22) & 3u) == 0 ? 1 : 0; /* single register */
	}
	return (insn & (1u << 22)) ? 0 : 1; /* pairs, exclusives, SIMD structures */
}
#endif

#if defined(__riscv)
/* 1 for a store or an atomic, 0 for a load, -1 for anything else (a fault from something else). */
static int from_riscv_instruction(const uint16_t *pc)
{
	uint16_t lo = pc[0];

	if ((lo & 3u) == 3u) {
		switch (lo & 0x7fu) {
		case 0x03: /* LOAD */
		case 0x07: /* LOAD-FP */
			return 0;
		case 0x23: /* STORE */
		case 0x27: /* STORE-FP */
		case 0x2f: /* AMO, LR/SC: LR only reads */
			return ((lo & 0x7fu) == 0x2f && (pc[1] >> 11) == 0x02) ? 0 : 1;
		default:
			return -1;
		}
	}
	/* Compressed: quadrant 0 (register-based) and 2 (stack-pointer-based); funct3 1..3 load, 5..7 store. */
	if ((lo & 3u) == 0 || (lo & 3u) == 2) {
		unsigned int funct3 = lo >> 13;

		if (funct3 >= 1 && funct3 <= 3)
			return 0;
		if (funct3 >= 5)
			return 1;
	}
	return -1;
}
#endif

int dmamap__fault_was_write(void *uc)
{
#if defined(__x86_64__) || defined(__i386__)
	return (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#elif defined(__aarch64__)
	const mcontext_t *mc = &((ucontext_t *)uc)->uc_mcontext;
	int w = from_syndrome(mc);
	uint32_t insn;

	if (w >= 0)
		return w;
	memcpy(&insn, (const void *)(uintptr_t)mc->pc, sizeof(insn));
	return from_instruction(insn);
#elif defined(__riscv)
	const mcontext_t *mc = &((ucontext_t *)uc)->uc_mcontext;

	return from_riscv_instruction((const uint16_t *)(uintptr_t)mc->__gregs[REG_PC]);
#else
	(void)uc;
	return -1;
#endif
}
