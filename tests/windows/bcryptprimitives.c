/* A stand-in for Windows' bcryptprimitives.dll, for running baton's Windows build under
 * Wine 8.0 in the tests only (tests/windows/prepare.sh installs it into the test prefix;
 * it is never shipped). Rust's std (1.78 and later) takes its random numbers from
 * ProcessPrng in bcryptprimitives.dll, which Windows 10 and 11 have and Wine 8.0 does not:
 * without it the binary does not start. This one answers from RtlGenRandom
 * (advapi32!SystemFunction036), which Wine has. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a ULONG length: hand it a large request in pieces. */
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
