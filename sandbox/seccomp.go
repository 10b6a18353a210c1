package sandbox

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A sandboxed command must not reach a Unix socket: the worker's, the Docker
// daemon's, an ssh-agent's or a D-Bus session would let it out. A read-only
// bind mount does not stop connect(2) on a socket file, and a new network
// namespace only separates the abstract ones, so the sandbox installs a seccomp
// filter that refuses to create AF_UNIX sockets (socketpair, which makes a
// connected pair and reaches nothing, stays allowed). It also refuses io_uring,
// whose IORING_OP_SOCKET would create sockets past the filter, and, under the
// Landlock fallback, which has no network namespace, every socket family but
// netlink: no UDP, raw or vsock socket gets out either.

// socketPolicy says which socket families a sandboxed command may create.
type socketPolicy uint8

const (
	// noUnixSockets refuses AF_UNIX; the network namespace handles the rest
	// (bubblewrap).
	noUnixSockets socketPolicy = iota
	// netlinkOnly refuses every family but AF_NETLINK (Landlock fallback).
	netlinkOnly
	// netlinkAndUnix refuses every family but AF_NETLINK and AF_UNIX
	// (Landlock fallback with network.allowAllUnixSockets).
	netlinkAndUnix
	// anySocket refuses none (bubblewrap with network.allowAllUnixSockets);
	// io_uring stays refused.
	anySocket
)

// Classic BPF as seccomp runs it (linux/filter.h, linux/seccomp.h).
const (
	bpfLdAbsW = 0x20 // A = data[k]
	bpfJeqK   = 0x15 // pc += A == k ? jt : jf
	bpfJgeK   = 0x35 // pc += A >= k ? jt : jf
	bpfRetK   = 0x06 // return k

	retAllow     = 0x7fff0000
	retErrno     = 0x00050000
	offNr        = 0  // seccomp_data.nr
	offArch      = 4  // seccomp_data.arch
	offArg0Low   = 16 // low 32 bits of args[0] (little-endian)
	afUnix       = 1
	afNetlink    = 16
	sysSocketFn  = 1 // socketcall(2)'s SYS_SOCKET
	x32SyscallNr = 0x40000000
)

// abi is one system-call ABI a process of this architecture can use.
type abi struct {
	arch       uint32
	socket     uint32
	socketcall uint32 // 0: none
	x32        bool   // numbers at and above x32SyscallNr are the x32 ABI
	// mounts are the ABI's own numbers of the old mount calls (mount, umount,
	// umount2, pivot_root); the new mount API's are the same on every ABI
	// (newMountAPI).
	mounts []uint32
}

// abis are the ABIs of this architecture: the native one and the 32-bit compat
// one the kernel also accepts. Unknown ones are refused outright.
func abis() []abi {
	i386 := abi{arch: 0x40000003, socket: 359, socketcall: 102, mounts: []uint32{21, 22, 52, 217}}
	switch runtime.GOARCH {
	case "amd64":
		return []abi{{arch: 0xc000003e, socket: 41, x32: true, mounts: []uint32{165, 166, 155}}, i386}
	case "386":
		return []abi{i386}
	case "arm64":
		return []abi{{arch: 0xc00000b7, socket: 198, mounts: []uint32{40, 39, 41}}, {arch: 0x40000028, socket: 281, mounts: []uint32{21, 52, 218}}}
	}
	return nil
}

// newMountAPI are open_tree, move_mount, fsopen, fsconfig, fsmount, fspick and
// mount_setattr, numbered alike on every ABI above.
//
// Every mount call is refused in the sandbox (issue 40): its mounts are what
// confine the command (the read-only root, the hidden credentials, the
// placeholders over control files), and a command that may mount can undo them.
// bubblewrap drops every capability (--cap-drop ALL), which refuses them already;
// the filter refuses them again for the command that regains capabilities in a
// user namespace of its own, and under the Landlock fallback.
var newMountAPI = []uint32{428, 429, 430, 431, 432, 433, 442}

// ioUring are io_uring_setup, io_uring_enter and io_uring_register, numbered
// alike on every ABI above.
var ioUring = []uint32{425, 426, 427}

type insn struct {
	op     uint16
	jt, jf string // labels; "" is the next instruction
	k      uint32
	label  string // this instruction's label
}

// seccompProgram is the filter for p as seccomp's sock_filter array, in the
// machine's byte order (bwrap's --seccomp reads it so).
func seccompProgram(p socketPolicy) ([]byte, error) {
	as := abis()
	if len(as) == 0 {
		return nil, fmt.Errorf("no seccomp filter for %s: sockets cannot be restricted here", runtime.GOARCH)
	}
	var prog []insn
	emit := func(i insn) { prog = append(prog, i) }
	emit(insn{op: bpfLdAbsW, k: offArch})
	for i, a := range as {
		emit(insn{op: bpfJeqK, k: a.arch, jt: fmt.Sprintf("abi%d", i)})
	}
	emit(insn{op: bpfRetK, k: retErrno | uint32(unix.ENOSYS)}) // an ABI this filter does not know
	for i, a := range as {
		emit(insn{op: bpfLdAbsW, k: offNr, label: fmt.Sprintf("abi%d", i)})
		if a.x32 {
			emit(insn{op: bpfJgeK, k: x32SyscallNr, jt: "deny"})
		}
		emit(insn{op: bpfJeqK, k: a.socket, jt: "family"})
		if a.socketcall != 0 {
			emit(insn{op: bpfJeqK, k: a.socketcall, jt: fmt.Sprintf("socketcall%d", i)})
		}
		for _, n := range slices.Concat(ioUring, a.mounts, newMountAPI) {
			emit(insn{op: bpfJeqK, k: n, jt: "deny"})
		}
		emit(insn{op: bpfRetK, k: retAllow})
		if a.socketcall != 0 {
			// The family is behind a pointer there: refuse SYS_SOCKET whole.
			emit(insn{op: bpfLdAbsW, k: offArg0Low, label: fmt.Sprintf("socketcall%d", i)})
			emit(insn{op: bpfJeqK, k: sysSocketFn, jt: "deny"})
			emit(insn{op: bpfRetK, k: retAllow})
		}
	}
	emit(insn{op: bpfLdAbsW, k: offArg0Low, label: "family"})
	switch p {
	case noUnixSockets:
		emit(insn{op: bpfJeqK, k: afUnix, jt: "deny"})
		emit(insn{op: bpfRetK, k: retAllow})
	case netlinkOnly, netlinkAndUnix:
		emit(insn{op: bpfJeqK, k: afNetlink, jt: "allow"})
		if p == netlinkAndUnix {
			emit(insn{op: bpfJeqK, k: afUnix, jt: "allow"})
		}
		emit(insn{op: bpfRetK, k: retErrno | uint32(unix.EPERM)})
		emit(insn{op: bpfRetK, k: retAllow, label: "allow"})
	default:
		emit(insn{op: bpfRetK, k: retAllow})
	}
	emit(insn{op: bpfRetK, k: retErrno | uint32(unix.EPERM), label: "deny"})
	return assemble(prog)
}

// assemble resolves the labels of prog into relative jumps.
func assemble(prog []insn) ([]byte, error) {
	at := map[string]int{}
	for i, in := range prog {
		if in.label != "" {
			at[in.label] = i
		}
	}
	off := func(i int, label string) (uint8, error) {
		if label == "" {
			return 0, nil
		}
		t, ok := at[label]
		if !ok || t <= i || t-i-1 > 255 {
			return 0, fmt.Errorf("seccomp: bad jump from %d to %q", i, label)
		}
		return uint8(t - i - 1), nil
	}
	out := make([]byte, 0, 8*len(prog))
	for i, in := range prog {
		jt, err := off(i, in.jt)
		if err != nil {
			return nil, err
		}
		jf, err := off(i, in.jf)
		if err != nil {
			return nil, err
		}
		out = binary.NativeEndian.AppendUint16(out, in.op)
		out = append(out, jt, jf)
		out = binary.NativeEndian.AppendUint32(out, in.k)
	}
	return out, nil
}

// seccompFile is the filter for p as a file bwrap reads from the descriptor
// --seccomp names: the read end of a pipe that already holds the whole program.
// The caller passes it to the process and closes it once the process started.
func seccompFile(p socketPolicy) (*os.File, error) {
	prog, err := seccompProgram(p)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	defer w.Close()
	if _, err := w.Write(prog); err != nil { // a few hundred bytes: the pipe holds them
		r.Close()
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	return r, nil
}

// installSeccomp loads the filter for p into this process, all its threads, and
// what it executes (the Landlock launcher, which has set no_new_privs).
func installSeccomp(p socketPolicy) error {
	prog, err := seccompProgram(p)
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("seccomp: no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog) / 8), Filter: (*unix.SockFilter)(unsafe.Pointer(&prog[0]))}
	tid, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	switch {
	case errno != 0:
		return fmt.Errorf("seccomp: %w", errno)
	case tid != 0:
		return fmt.Errorf("seccomp: thread %d could not take the filter", tid)
	}
	return nil
}
