"""Structure layouts per personality: what strace's mpers does for 32-bit tracees.

A decoder reads ``p.lay.TIMESPEC`` (its printer's layouts), never a module
global, so one decoder prints both personalities: the x86_64 printer carries
``X86_64``, an i386 tracee's printer ``I386``, and the i386-only names that
reuse an x86_64 decoder with another layout (``stat64``, the ``*_time64``
calls) a copy with some fields replaced (``VARIANT_FAMILIES``, named by the tables' ``variant`` column).
"""

from __future__ import annotations

import struct

from pytrace.decode.reordered import STAT32, STAT64

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any


class Layouts:
    """One personality's structure layouts (attributes named after the C structure or field)."""

    __slots__ = ("CLONE_ORDER", "CMSGHDR", "CMSG_ALIGN", "FLOCK", "FLOCK64", "FOUR", "GROUP_REQ_SIZE", "GR_GROUP_OFF", "IOVEC", "IPC_PERM", "KEXEC_SEGMENT", "KSIGACTION", "LONG", "LONG_SIZE", "MMSGHDR_SIZE", "MSGHDR", "MSGRCV_PAIR", "OFF_T", "OLDSELECT_ARGS", "OLD_TIME_PAIR", "PAIR", "PAIR2", "PTR_SIZE", "RLIMIT", "RUSAGE", "SHM_INFO_S", "SIGEVENT", "SIGSET_PAIR", "SI_CLOCKS", "SI_CLOCK_OFF", "SI_PTR", "SI_U", "SI_VAL", "SOCK_FPROG", "SOCK_FPROG_SIZE", "STACK_T", "STAT", "STATFS", "STATFS64", "SYSCTL_ARGS", "SYSINFO", "TIMESPEC", "TIMEX", "ULONG", "UTIMBUF", "WORD", "WORD_CODE", "personality")

    def __init__(self, personality: str, **fields: Any) -> None:
        self.personality = personality
        for name, value in fields.items():
            setattr(self, name, value)

    def replace(self, **fields: Any) -> Layouts:
        """A copy with some fields replaced (an i386 variant such as stat64)."""
        new = Layouts(self.personality)
        for name in self.__slots__:
            if name != "personality":
                setattr(new, name, fields.get(name, getattr(self, name)))
        return new


X86_64 = Layouts(
    "x86_64",
    CLONE_ORDER=(0, 1, 2, 3, 4),
    CMSGHDR=struct.Struct("<Qii"),
    CMSG_ALIGN=7,
    FLOCK=struct.Struct("<hh4xqqi4x"),
    FLOCK64=struct.Struct("<hh4xqqi4x"),
    FOUR=struct.Struct("<qQqQ"),
    GROUP_REQ_SIZE=136,
    GR_GROUP_OFF=8,
    IOVEC=struct.Struct("<QQ"),
    IPC_PERM=struct.Struct("<iIIIIIH6x16x"),
    KEXEC_SEGMENT=struct.Struct("<QQQQ"),
    KSIGACTION=struct.Struct("<QQQQ"),
    LONG=struct.Struct("<q"),
    LONG_SIZE=8,
    MMSGHDR_SIZE=64,
    MSGHDR=struct.Struct("<QI4xQQQQI4x"),
    MSGRCV_PAIR=struct.Struct("<Qq"),
    OFF_T=struct.Struct("<Q"),
    OLDSELECT_ARGS=struct.Struct("<5Q"),
    OLD_TIME_PAIR=struct.Struct("<qQ"),
    PAIR=struct.Struct("<qQ"),
    PAIR2=struct.Struct("<qQqQ"),
    PTR_SIZE=8,
    RLIMIT=struct.Struct("<QQ"),
    RUSAGE=struct.Struct("<4q14q"),
    SHM_INFO_S=struct.Struct("<i4xQQQQQ"),
    SIGEVENT=struct.Struct("<QiiQQ"),
    SIGSET_PAIR=struct.Struct("<QQ"),
    SI_CLOCKS=struct.Struct("<qq"),
    SI_CLOCK_OFF=32,
    SI_PTR=struct.Struct("<Q"),
    SI_U=16,
    SI_VAL=24,
    SOCK_FPROG=struct.Struct("<H6xQ"),
    SOCK_FPROG_SIZE=16,
    STACK_T=struct.Struct("<Qi4xQ"),
    STAT=struct.Struct("<QQQIIIIQqqqqQqQqQ"),
    STATFS=struct.Struct("<qqQQQQQIIqqq"),
    STATFS64=struct.Struct("<qqQQQQQIIqqq"),
    SYSCTL_ARGS=struct.Struct("<Qi4xQQQQ32x"),
    SYSINFO=struct.Struct("<q3Q6QH6xQQI"),
    TIMESPEC=struct.Struct("<qQ"),
    TIMEX=struct.Struct("<I4xqqqqi4xqqqqqqqqi4xqqqqqi44x"),
    ULONG=struct.Struct("<Q"),
    UTIMBUF=struct.Struct("<2q"),
    WORD=8,
    WORD_CODE='Q',
)

I386 = Layouts(
    "i386",
    CLONE_ORDER=(0, 1, 2, 4, 3),
    CMSGHDR=struct.Struct("<Iii"),
    CMSG_ALIGN=3,
    FLOCK=struct.Struct("<hhiii"),
    FLOCK64=struct.Struct("<hhqqi"),
    FOUR=struct.Struct("<iIiI"),
    GROUP_REQ_SIZE=132,
    GR_GROUP_OFF=4,
    IOVEC=struct.Struct("<II"),
    IPC_PERM=struct.Struct("<iIIIIH2xH6x16x"),
    KEXEC_SEGMENT=struct.Struct("<IIII"),
    KSIGACTION=struct.Struct("<IIIQ"),
    LONG=struct.Struct("<i"),
    LONG_SIZE=4,
    MMSGHDR_SIZE=32,
    MSGHDR=struct.Struct("<IIIIIII"),
    MSGRCV_PAIR=struct.Struct("<Ii"),
    OFF_T=struct.Struct("<I"),
    OLDSELECT_ARGS=struct.Struct("<5I"),
    OLD_TIME_PAIR=struct.Struct("<iI"),
    PAIR=struct.Struct("<iI"),
    PAIR2=struct.Struct("<iIiI"),
    PTR_SIZE=4,
    RLIMIT=struct.Struct("<II"),
    RUSAGE=struct.Struct("<4i14I"),
    SHM_INFO_S=struct.Struct("<i5I"),
    SIGEVENT=struct.Struct("<IiiII"),
    SIGSET_PAIR=struct.Struct("<II"),
    SI_CLOCKS=struct.Struct("<ii"),
    SI_CLOCK_OFF=24,
    SI_PTR=struct.Struct("<I"),
    SI_U=12,
    SI_VAL=20,
    SOCK_FPROG=struct.Struct("<H2xI"),
    SOCK_FPROG_SIZE=8,
    STACK_T=struct.Struct("<IiI"),
    STAT=STAT32,
    STATFS=struct.Struct("<iiIIIIIIIiii16x"),
    STATFS64=struct.Struct("<iiQQQQQIIiii16x"),
    SYSCTL_ARGS=struct.Struct("<IiIIII16x"),
    SYSINFO=struct.Struct("<i3I6IH2xIII"),
    TIMESPEC=struct.Struct("<iI"),
    TIMEX=struct.Struct("<I20i44x"),
    ULONG=struct.Struct("<I"),
    UTIMBUF=struct.Struct("<2i"),
    WORD=4,
    WORD_CODE='I',
)

#: The *_time64 calls: 32-bit everything but the times (struct __kernel_timespec...).
I386_TIME64 = I386.replace(
    FOUR=struct.Struct("<qQqQ"),
    PAIR=struct.Struct("<qQ"),
    PAIR2=struct.Struct("<qQqQ"),
    TIMESPEC=struct.Struct("<qQ"),
    TIMEX=struct.Struct("<I4xqqqqi4xqqqqqqqqi4xqqqqqi44x"),
)

#: The layout family of an i386-only name that reuses an x86_64 decoder (the syscall tables' ``variant``
#: column names it): the layouts that decoder reads for it.
VARIANT_FAMILIES: dict[str, Layouts] = {
    "stat64": I386.replace(STAT=STAT64),
    "time64": I386_TIME64,
    # printnum_int64(..., "%" PRIu64): sendfile64's loff_t, unsigned
    "off64": I386.replace(OFF_T=struct.Struct("<Q")),
}


def layouts_for(personality: str) -> Layouts:
    """The layouts a tracee of this personality uses."""
    return I386 if personality == "i386" else X86_64
