#!/usr/bin/env python3
"""Checks a release binary for the target it was built for, without running it, and prints
one line saying what it is. Exits 1 (saying why) when it is not what the target needs.

    scripts/inspect-binary.py dist/baton-0.1.0-aarch64-apple-darwin aarch64-apple-darwin

- ELF (Linux musl): the machine, and that it is static (no program interpreter, no dynamic
  section), so it runs on any distribution, glibc or musl.
- Mach-O (macOS): the CPU, the minimum macOS version (LC_BUILD_VERSION or
  LC_VERSION_MIN_MACOSX) against MACOSX_DEPLOYMENT_TARGET, the entry point (LC_MAIN) and the
  exported `_main`, a code signature (Apple silicon runs no unsigned code), and that it loads
  only libraries every macOS has in /usr/lib (libSystem, libiconv; no framework such as
  CoreFoundation).
- PE (Windows): the machine type, a console program, and the C runtime it imports (UCRT).
"""
import struct
import sys

# target -> (format, machine, minimum macOS)
TARGETS = {
    "x86_64-unknown-linux-musl": ("elf", 0x3E, None),
    "aarch64-unknown-linux-musl": ("elf", 0xB7, None),
    "x86_64-apple-darwin": ("macho", 0x01000007, (10, 12)),
    "aarch64-apple-darwin": ("macho", 0x0100000C, (11, 0)),
    "x86_64-pc-windows-gnullvm": ("pe", 0x8664, None),
    "aarch64-pc-windows-gnullvm": ("pe", 0xAA64, None),
}
# What every macOS has in /usr/lib (in the dyld shared cache): libSystem, and libiconv, which
# Rust's standard library links on Apple targets (with libcharset, which it re-exports).
# Frameworks (CoreFoundation) or anything else would be a dependency to explain.
SYSTEM_DYLIBS = {"/usr/lib/libSystem.B.dylib", "/usr/lib/libiconv.2.dylib", "/usr/lib/libcharset.1.dylib"}
MACHINE_NAMES = {0x3E: "x86_64", 0xB7: "aarch64", 0x01000007: "x86_64", 0x0100000C: "arm64",
                 0x8664: "x86_64 (AMD64)", 0xAA64: "ARM64"}


class Bad(Exception):
    pass


def elf(data, machine):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise Bad("not a 64-bit little-endian ELF file")
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != machine:
        raise Bad("ELF machine 0x%x, expected 0x%x" % (e_machine, machine))
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    kinds = [struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)]
    if 3 in kinds:
        raise Bad("has a program interpreter: dynamically linked")
    linking = "static-pie" if 2 in kinds else "static"
    return "ELF %s, %s (no interpreter: runs on glibc and musl systems)" % (MACHINE_NAMES[machine], linking)


def uleb(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def exported_names(data, start):
    """Every name in a Mach-O export trie."""
    names, stack = [], [(0, "")]
    while stack:
        offset, prefix = stack.pop()
        at = start + offset
        terminal, at = uleb(data, at)
        if terminal:
            names.append(prefix)
        at += terminal
        children = data[at]
        at += 1
        for _ in range(children):
            end = data.index(b"\0", at)
            edge = data[at:end].decode()
            child, at = uleb(data, end + 1)
            stack.append((child, prefix + edge))
    return names


def version(v):
    return (v >> 16, (v >> 8) & 0xFF)


def macho(data, machine, minimum):
    magic, cputype, _, filetype, ncmds, _, _ = struct.unpack_from("<IiIIIII", data, 0)
    if magic != 0xFEEDFACF:
        raise Bad("not a 64-bit Mach-O file (magic 0x%x)" % magic)
    if cputype & 0xFFFFFFFF != machine:
        raise Bad("Mach-O CPU 0x%x, expected 0x%x" % (cputype & 0xFFFFFFFF, machine))
    if filetype != 2:
        raise Bad("Mach-O file type %d, not an executable" % filetype)
    at = 32
    minos = entry = exports = None
    dylibs, signed = [], False
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd == 0x32:  # LC_BUILD_VERSION
            platform, raw = struct.unpack_from("<II", data, at + 8)
            if platform != 1:
                raise Bad("LC_BUILD_VERSION platform %d, not macOS" % platform)
            minos = ("LC_BUILD_VERSION", version(raw))
        elif cmd == 0x24:  # LC_VERSION_MIN_MACOSX
            minos = ("LC_VERSION_MIN_MACOSX", version(struct.unpack_from("<I", data, at + 8)[0]))
        elif cmd == 0x80000028:  # LC_MAIN
            entry = struct.unpack_from("<Q", data, at + 8)[0]
        elif cmd in (0xC, 0x80000018, 0x8000001F):  # LC_LOAD_DYLIB, weak, reexport
            name_at = at + struct.unpack_from("<I", data, at + 8)[0]
            dylibs.append(data[name_at:data.index(b"\0", name_at)].decode())
        elif cmd == 0x1D:  # LC_CODE_SIGNATURE: a SuperBlob (big-endian) holding a CodeDirectory
            sig_at, sig_size = struct.unpack_from("<II", data, at + 8)
            magic, _, count = struct.unpack_from(">III", data, sig_at)
            kinds = [struct.unpack_from(">II", data, sig_at + 12 + 8 * i)[0] for i in range(count)]
            signed = magic == 0xFADE0CC0 and 0 in kinds and sig_at + sig_size <= len(data)
        elif cmd == 0x80000033:  # LC_DYLD_EXPORTS_TRIE
            exports = exported_names(data, struct.unpack_from("<I", data, at + 8)[0])
        elif cmd == 0x80000022 and exports is None:  # LC_DYLD_INFO_ONLY
            off, size_ = struct.unpack_from("<II", data, at + 40)
            exports = exported_names(data, off) if size_ else []
        at += size
    if minos is None:
        raise Bad("no minimum macOS version (LC_BUILD_VERSION / LC_VERSION_MIN_MACOSX)")
    if minos[1] != minimum:
        raise Bad("needs macOS %d.%d, expected %d.%d" % (minos[1] + minimum))
    if entry is None:
        raise Bad("no LC_MAIN entry point")
    if "_main" not in (exports or []):
        raise Bad("`_main` is not exported (exports: %s)" % exports)
    if machine == 0x0100000C and not signed:
        raise Bad("no code signature with a code directory: Apple silicon refuses to run it")
    others = [d for d in dylibs if d not in SYSTEM_DYLIBS]
    if others:
        raise Bad("loads more than the system's own libraries: %s" % ", ".join(others))
    return "Mach-O %s executable, macOS >= %d.%d (%s), entry LC_MAIN +0x%x, exports _main, %s, loads %s" % (
        MACHINE_NAMES[machine], minos[1][0], minos[1][1], minos[0], entry,
        "ad-hoc signed" if signed else "unsigned", ", ".join(d.rsplit("/", 1)[1] for d in dylibs))


def pe(data, machine):
    if data[:2] != b"MZ":
        raise Bad("not a PE file")
    (pe_at,) = struct.unpack_from("<I", data, 0x3C)
    if data[pe_at:pe_at + 4] != b"PE\0\0":
        raise Bad("no PE signature")
    coff = pe_at + 4
    found, sections, _, _, _, opt_size, _ = struct.unpack_from("<HHIIIHH", data, coff)
    if found != machine:
        raise Bad("PE machine 0x%x, expected 0x%x" % (found, machine))
    opt = coff + 20
    if struct.unpack_from("<H", data, opt)[0] != 0x20B:
        raise Bad("not PE32+")
    (subsystem,) = struct.unpack_from("<H", data, opt + 68)
    if subsystem != 3:
        raise Bad("subsystem %d, not a console program" % subsystem)
    import_rva, _ = struct.unpack_from("<II", data, opt + 112 + 8)
    table = opt + opt_size
    ranges = []
    for i in range(sections):
        vsize, vaddr, rsize, raw = struct.unpack_from("<IIII", data, table + i * 40 + 8)
        ranges.append((vaddr, max(vsize, rsize), raw))

    def file_offset(rva):
        for vaddr, size, raw in ranges:
            if vaddr <= rva < vaddr + size:
                return rva - vaddr + raw
        raise Bad("RVA 0x%x is in no section" % rva)

    dlls, at = [], file_offset(import_rva)
    while True:
        name_rva = struct.unpack_from("<I", data, at + 12)[0]
        if name_rva == 0:
            break
        name_at = file_offset(name_rva)
        dlls.append(data[name_at:data.index(b"\0", name_at)].decode().lower())
        at += 20
    crt = sorted(d for d in dlls if d.startswith("api-ms-win-crt-") or d == "ucrtbase.dll")
    if not crt or "msvcrt.dll" in dlls:
        raise Bad("does not link the UCRT (imports: %s)" % ", ".join(dlls))
    rest = sorted(d for d in dlls if d not in crt)
    return "PE32+ %s console program, UCRT (%d api-ms-win-crt DLLs), also imports %s" % (
        MACHINE_NAMES[machine], len(crt), ", ".join(rest))


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in TARGETS:
        sys.exit("usage: inspect-binary.py FILE TARGET (one of %s)" % ", ".join(TARGETS))
    path, target = sys.argv[1:]
    kind, machine, minimum = TARGETS[target]
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("%s: %s" % (path, e.strerror))
    try:
        line = {"elf": lambda: elf(data, machine), "macho": lambda: macho(data, machine, minimum),
                "pe": lambda: pe(data, machine)}[kind]()
    except (Bad, struct.error, IndexError, ValueError) as e:
        sys.exit("%s: %s: %s" % (path, target, e))
    print("%s: %s" % (target, line))


if __name__ == "__main__":
    main()
