/* A test-only stand-in for Windows' bcryptprimitives.dll, which Debian 12's wine 8 lacks and
 * Rust's standard library (1.78 on) imports for ProcessPrng. Real Windows 10/11 has the DLL:
 * never ship this one. It fills the buffer from advapi32's RtlGenRandom (SystemFunction036).
 * Built and used by tools/release-check.sh (which .ci/run runs). */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
