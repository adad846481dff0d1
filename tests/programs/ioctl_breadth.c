/* ioctl requests from many families, on descriptors where they fail harmlessly:
 * /dev/null (ENOTTY), a socket, a pipe and -1 (EBADF).  The argument is the unreadable
 * address 0x1, so every request prints its name and a bare argument in both tracers.
 * (Requests whose argument strace decodes specially - _IO ones it prints without an
 * argument, int-valued ones - are left out: this program checks the names.) */
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <linux/loop.h>
#include <linux/random.h>
#include <linux/rtc.h>
#include <linux/sockios.h>
#include <linux/userfaultfd.h>
#include <linux/vt.h>
#include <linux/kd.h>
#include <linux/cdrom.h>
#include <linux/fb.h>
#include <linux/hdreg.h>
#include <linux/watchdog.h>
#include <linux/if_tun.h>
#include <linux/perf_event.h>
#include <linux/dma-buf.h>
#include <linux/vfio.h>
#include <linux/vhost.h>
#include <linux/usbdevice_fs.h>
#include <linux/ppdev.h>
#include <linux/btrfs.h>
#include <linux/nbd.h>
#include <linux/uinput.h>
#include <sound/asound.h>
#include <mtd/mtd-user.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define ARG ((unsigned long) 1)

int main(void)
{
    static const unsigned long requests[] = {
        BLKGETSIZE64, BLKSSZGET, BLKROGET, BLKDISCARD, BLKZEROOUT,
        FS_IOC_GETFLAGS, FS_IOC_SETFLAGS, FS_IOC_GETVERSION, FS_IOC_FIEMAP,
        LOOP_GET_STATUS64, LOOP_CONFIGURE,
        SNDRV_PCM_IOCTL_PVERSION, SNDRV_PCM_IOCTL_INFO, SNDRV_CTL_IOCTL_CARD_INFO,
        EVIOCGVERSION, EVIOCGID,
        KVM_GET_API_VERSION, KVM_CREATE_VM, KVM_RUN, KVM_GET_REGS,
        RNDGETENTCNT, RTC_RD_TIME,
        VT_GETSTATE, VT_ACTIVATE, KDGETMODE, KDGKBTYPE, CDROMEJECT, CDROM_GET_CAPABILITY,
        FBIOGET_VSCREENINFO, HDIO_GETGEO, WDIOC_GETSUPPORT,
        TUNGETFEATURES, DMA_BUF_IOCTL_SYNC,
        VFIO_GET_API_VERSION, VHOST_GET_FEATURES, USBDEVFS_GETDRIVER, PPCLAIM,
        BTRFS_IOC_FS_INFO, UI_DEV_CREATE,
        MEMGETINFO, SG_GET_VERSION_NUM, UFFDIO_API,
    };
    static const unsigned long sock_requests[] = { SIOCGIFNAME, SIOCGIFCONF, SIOCGIFFLAGS, SIOCATMARK };
    int null = open("/dev/null", O_RDONLY);
    int sock = socket(AF_UNIX, SOCK_DGRAM, 0);
    int p[2];

    pipe(p);
    for (unsigned i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
        ioctl(null, requests[i], ARG);
    for (unsigned i = 0; i < sizeof(sock_requests) / sizeof(sock_requests[0]); i++)
        ioctl(sock, sock_requests[i], ARG);
    ioctl(p[0], KVM_GET_REGS, ARG);
    ioctl(-1, BLKGETSIZE64, ARG);
    ioctl(-1, 0x5402, ARG);                       /* a code two names share: TCSETS and OSS's */
    ioctl(-1, _IOW('d', 0x09, long long), ARG);   /* DRM_IOCTL_GEM_CLOSE's code (no libdrm needed) */
    ioctl(-1, _IOR(0x99, 0x1, int), ARG);         /* nobody's: _IOC(...) */
    return 0;
}
