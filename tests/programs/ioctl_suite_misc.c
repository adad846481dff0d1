/* ioctl requests fixed after the strace test-suite sweep: NULL pointer arguments of families
 * pytrace shows only as a pointer (gpio, hdio, counter, btrfs, ptp, v4l2, sg...), KIOCSOUND and
 * KDMKTONE's tone comments, watchdog, INOTIFY_IOC_SETNEXTWD, FS_IOC_FIEMAP's 32-byte read,
 * unknown evdev numbers, userfaultfd (real descriptor) and the rtc family (valid, NULL and
 * unreadable arguments, all on fd -1 except the userfaultfd ones).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/gpio.h>
#include <linux/hdreg.h>
#include <linux/input.h>
#include <sys/inotify.h>
#ifndef INOTIFY_IOC_SETNEXTWD
# define INOTIFY_IOC_SETNEXTWD _IOW('I', 0, int)
#endif
#include <linux/kd.h>
#include <linux/ptp_clock.h>
#include <linux/rtc.h>
#include <linux/userfaultfd.h>
#include <linux/videodev2.h>
#include <linux/watchdog.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A buffer whose end touches an unmapped page: reads past it fail like strace's tail_alloc. */
static void *tail(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p + page, page);
	return p + page - size;
}

int main(void)
{
	static const unsigned long nulls[] = {
		GPIO_GET_CHIPINFO_IOCTL, GPIO_GET_LINEINFO_IOCTL, HDIO_GETGEO, HDIO_DRIVE_CMD,
		PTP_CLOCK_GETCAPS, PTP_SYS_OFFSET, VIDIOC_QUERYCAP, VIDIOC_G_FMT, SG_IO, SG_GET_VERSION_NUM,
		KDGETLED, KDGKBTYPE, RTC_PARAM_GET, UFFDIO_API,
	};
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++) {
		ioctl(-1, nulls[i], 0);
		ioctl(-1, nulls[i], (unsigned long) 0xdead0000);
	}

	/* kd.c tones */
	static const unsigned long sounds[] = { 0, 1, 440, 1193182, 1193183, 0xbadc0dedfacefeedUL };
	for (size_t i = 0; i < sizeof(sounds) / sizeof(sounds[0]); i++)
		ioctl(-1, KIOCSOUND, sounds[i]);
	static const unsigned long tones[] = { 0, 440, 0xffff, 1 << 16, (1 << 16) | 1, (0xdead << 16) | 0xface };
	for (size_t i = 0; i < sizeof(tones) / sizeof(tones[0]); i++)
		ioctl(-1, KDMKTONE, tones[i]);

	/* watchdog.c, inotify */
	int *val = tail(sizeof(*val));
	*val = 123;
	ioctl(-1, WDIOC_SETTIMEOUT, val);
	ioctl(-1, WDIOC_SETPRETIMEOUT, val);
	ioctl(-1, WDIOC_SETTIMEOUT, 0);
	ioctl(-1, WDIOC_GETTIMEOUT, val);
	ioctl(-1, WDIOC_GETSTATUS, 0);
	ioctl(-1, WDIOC_KEEPALIVE, 0);
	ioctl(-1, INOTIFY_IOC_SETNEXTWD, 0xfeedbeefbadc0dedUL);
	ioctl(-1, INOTIFY_IOC_SETNEXTWD, 7);

	/* fiemap: a structure one byte short of readable prints as its address */
	struct fiemap *fm = tail(sizeof(*fm));
	memset(fm, 0, sizeof(*fm));
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = 2;
	ioctl(-1, FS_IOC_FIEMAP, (char *) fm + 1);
	ioctl(-1, FS_IOC_FIEMAP, fm);

	/* evdev numbers without a name */
	ioctl(-1, EVIOCGABS(0xe), 0);
	ioctl(-1, EVIOCSABS(0x3f), 0);

	/* rtc */
	struct rtc_time *tm = tail(sizeof(*tm));
	memset(tm, 0, sizeof(*tm));
	tm->tm_sec = 1; tm->tm_min = 2; tm->tm_hour = 3; tm->tm_mday = 4; tm->tm_mon = 5; tm->tm_year = 126;
	tm->tm_wday = 6; tm->tm_yday = 7; tm->tm_isdst = -1;
	ioctl(-1, RTC_SET_TIME, tm);
	ioctl(-1, RTC_ALM_SET, 0);
	ioctl(-1, RTC_RD_TIME, tm);
	struct rtc_wkalrm *wk = tail(sizeof(*wk));
	memset(wk, 0, sizeof(*wk));
	wk->enabled = 1; wk->time.tm_hour = 23;
	ioctl(-1, RTC_WKALM_SET, wk);
	ioctl(-1, RTC_WKALM_SET, (char *) wk + 1);
	struct rtc_pll_info *pll = tail(sizeof(*pll));
	memset(pll, 0, sizeof(*pll));
	pll->pll_ctrl = -1; pll->pll_clock = 32768;
	ioctl(-1, RTC_PLL_SET, pll);
	ioctl(-1, RTC_IRQP_SET, 64);
	ioctl(-1, RTC_EPOCH_READ, val);
	ioctl(-1, RTC_VL_READ, val);
	ioctl(-1, RTC_AIE_ON, 0);
	ioctl(-1, RTC_UIE_OFF, 0);
	struct rtc_param *prm = tail(sizeof(*prm));
	memset(prm, 0, sizeof(*prm));
	prm->param = RTC_PARAM_FEATURES;
	prm->uvalue = (1 << RTC_FEATURE_ALARM) | (1 << RTC_FEATURE_CORRECTION) | 0x100000;
	prm->index = 3;
	ioctl(-1, RTC_PARAM_SET, prm);
	ioctl(-1, RTC_PARAM_GET, prm);
	prm->param = RTC_PARAM_CORRECTION;
	prm->svalue = -1337;
	prm->__pad = 5;
	ioctl(-1, RTC_PARAM_SET, prm);
	prm->param = RTC_PARAM_BACKUP_SWITCH_MODE;
	prm->uvalue = RTC_BSM_LEVEL;
	prm->__pad = 0;
	ioctl(-1, RTC_PARAM_SET, prm);
	prm->param = 77;
	prm->uvalue = 0xabc;
	ioctl(-1, RTC_PARAM_SET, prm);

	/* userfaultfd: a real descriptor, when the kernel allows it */
	struct uffdio_api *api = tail(sizeof(*api));
	memset(api, 0, sizeof(*api));
	ioctl(-1, UFFDIO_API, api);
	struct uffdio_range *range = tail(sizeof(*range));
	range->start = 0x10000;
	range->len = 0x1000;
	ioctl(-1, UFFDIO_WAKE, range);
	ioctl(-1, UFFDIO_UNREGISTER, 0);
	struct uffdio_copy *copy = tail(sizeof(*copy));
	memset(copy, 0, sizeof(*copy));
	copy->len = 0x1000;
	copy->mode = UFFDIO_COPY_MODE_DONTWAKE | 0x40;
	ioctl(-1, UFFDIO_COPY, copy);
	struct uffdio_zeropage *zp = tail(sizeof(*zp));
	memset(zp, 0, sizeof(*zp));
	zp->mode = UFFDIO_ZEROPAGE_MODE_DONTWAKE;
	ioctl(-1, UFFDIO_ZEROPAGE, zp);
	int uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd >= 0) {
		api->api = UFFD_API;
		api->features = 0;
		if (ioctl(uffd, UFFDIO_API, api) == 0) {
			long page = sysconf(_SC_PAGESIZE);
			char *area = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			char *src = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			struct uffdio_register *reg = tail(sizeof(*reg));
			memset(reg, 0, sizeof(*reg));
			reg->range.start = (uintptr_t) area;
			reg->range.len = page;
			reg->mode = UFFDIO_REGISTER_MODE_MISSING;
			ioctl(uffd, UFFDIO_REGISTER, reg);
			copy->dst = (uintptr_t) area;
			copy->src = (uintptr_t) src;
			copy->len = page;
			copy->mode = UFFDIO_COPY_MODE_DONTWAKE;
			ioctl(uffd, UFFDIO_COPY, copy);
			range->start = (uintptr_t) area;
			range->len = page;
			ioctl(uffd, UFFDIO_WAKE, range);
			ioctl(uffd, UFFDIO_UNREGISTER, range);
		}
		close(uffd);
	}
	return 0;
}
