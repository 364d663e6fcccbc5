// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/*
 * OFED 1.5 XRC verbs on rdma-core's XRC receive QP verbs. See
 * <infiniband/ofa_verbs.h> for the API and ../README.md for where OFED 1.5
 * and the kernel's counted references differ.
 */
#define OFA_VERBS_NO_COMPAT_NAMES
#include <infiniband/ofa_verbs.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * What OFED 1.5 kept per (context, XRC domain): the set of receive QPs the
 * context had registered. Shared by every ibv_xrc_domain of one context
 * that refers to the same domain (the same file), because the kernel's
 * XRCD, and OFED's registration, are per domain, not per handle.
 */
struct ofa_xrc_shared {
	struct ofa_xrc_shared *next;
	struct ibv_context *context;
	bool has_file;
	dev_t dev;
	ino_t ino;
	unsigned int handles;	/* ibv_xrc_domain objects on it */
	size_t nqps, maxqps;
	uint32_t *qps;		/* registered QP numbers, one entry each */
};

static pthread_mutex_t ofa_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ofa_xrc_shared *ofa_shared_list;

/*
 * Every open ibv_xrc_domain. An XRC send QP's domain is only checked,
 * never used, and may arrive through a struct the library cannot type
 * (a function pointer): it must be one of these, or it is EINVAL.
 */
static struct ibv_xrc_domain **ofa_domains;
static size_t ofa_ndomains, ofa_maxdomains;

/* OFED 1.5 said ENOSYS where the provider had no XRC receive QP verbs */
static int ofa_err(int err)
{
	if (err == EOPNOTSUPP || err == EPROTONOSUPPORT)
		return ENOSYS;
	return err;
}

static struct ofa_xrc_shared *shared_get(struct ibv_context *context, int fd)
{
	struct ofa_xrc_shared *s;
	struct stat st;
	bool has_file = false;

	if (fd >= 0) {
		if (fstat(fd, &st))
			return NULL;
		has_file = true;
	}

	if (has_file)
		for (s = ofa_shared_list; s; s = s->next)
			if (s->context == context && s->has_file &&
			    s->dev == st.st_dev && s->ino == st.st_ino) {
				s->handles++;
				return s;
			}

	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->context = context;
	s->has_file = has_file;
	if (has_file) {
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	}
	s->handles = 1;
	s->next = ofa_shared_list;
	ofa_shared_list = s;
	return s;
}

static void shared_put(struct ofa_xrc_shared *s)
{
	struct ofa_xrc_shared **p;

	if (--s->handles)
		return;
	for (p = &ofa_shared_list; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	free(s->qps);
	free(s);
}

static ssize_t shared_find(struct ofa_xrc_shared *s, uint32_t qpn)
{
	size_t i;

	for (i = 0; i < s->nqps; i++)
		if (s->qps[i] == qpn)
			return i;
	return -1;
}

static int shared_add(struct ofa_xrc_shared *s, uint32_t qpn)
{
	if (s->nqps == s->maxqps) {
		size_t max = s->maxqps ? 2 * s->maxqps : 8;
		uint32_t *qps = realloc(s->qps, max * sizeof(*qps));

		if (!qps)
			return ENOMEM;
		s->qps = qps;
		s->maxqps = max;
	}
	s->qps[s->nqps++] = qpn;
	return 0;
}

static void shared_del(struct ofa_xrc_shared *s, size_t i)
{
	s->qps[i] = s->qps[--s->nqps];
}

static int domain_add(struct ibv_xrc_domain *d)
{
	if (ofa_ndomains == ofa_maxdomains) {
		size_t max = ofa_maxdomains ? 2 * ofa_maxdomains : 8;
		struct ibv_xrc_domain **v;

		v = realloc(ofa_domains, max * sizeof(*v));
		if (!v)
			return ENOMEM;
		ofa_domains = v;
		ofa_maxdomains = max;
	}
	ofa_domains[ofa_ndomains++] = d;
	return 0;
}

static void domain_del(struct ibv_xrc_domain *d)
{
	size_t i;

	for (i = 0; i < ofa_ndomains; i++)
		if (ofa_domains[i] == d) {
			ofa_domains[i] = ofa_domains[--ofa_ndomains];
			break;
		}
	if (!ofa_ndomains) {
		free(ofa_domains);
		ofa_domains = NULL;
		ofa_maxdomains = 0;
	}
}

static bool domain_known(const struct ibv_xrc_domain *d)
{
	size_t i;

	for (i = 0; i < ofa_ndomains; i++)
		if (ofa_domains[i] == d)
			return true;
	return false;
}

struct ibv_xrc_domain *ofa_open_xrc_domain(struct ibv_context *context,
					   int fd, int oflag)
{
	struct ibv_xrcd_init_attr attr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = fd,
		.oflags = oflag,
	};
	struct ibv_xrc_domain *d;
	int err;

	if (!context) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->xrcd = ibv_open_xrcd(context, &attr);
	if (!d->xrcd) {
		err = ofa_err(errno);
		free(d);
		errno = err;
		return NULL;
	}
	pthread_mutex_lock(&ofa_lock);
	d->shared = shared_get(context, fd);
	if (d->shared && domain_add(d)) {
		shared_put(d->shared);
		d->shared = NULL;
		errno = ENOMEM;
	}
	pthread_mutex_unlock(&ofa_lock);
	if (!d->shared) {
		err = errno ? errno : ENOMEM;
		ibv_close_xrcd(d->xrcd);
		free(d);
		errno = err;
		return NULL;
	}
	d->context = context;
	/* rdma-core keeps the kernel's handle private; nothing used it */
	d->handle = 0;
	return d;
}

int ofa_close_xrc_domain(struct ibv_xrc_domain *d)
{
	int ret;

	if (!d)
		return EINVAL;
	/* EBUSY, as in OFED 1.5, while its last handle holds registrations */
	ret = ibv_close_xrcd(d->xrcd);
	if (ret)
		return ofa_err(ret);
	pthread_mutex_lock(&ofa_lock);
	domain_del(d);
	shared_put(d->shared);
	pthread_mutex_unlock(&ofa_lock);
	free(d);
	return 0;
}

struct ibv_srq *ofa_create_xrc_srq(struct ibv_pd *pd,
				   struct ibv_xrc_domain *xrc_domain,
				   struct ibv_cq *xrc_cq,
				   struct ibv_srq_init_attr *srq_init_attr)
{
	struct ibv_srq_init_attr_ex attr = {};
	struct ibv_srq *srq;

	if (!pd || !xrc_domain || !xrc_cq || !srq_init_attr) {
		errno = EINVAL;
		return NULL;
	}
	attr.srq_context = srq_init_attr->srq_context;
	attr.attr = srq_init_attr->attr;
	attr.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			 IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ;
	attr.srq_type = IBV_SRQT_XRC;
	attr.pd = pd;
	attr.xrcd = xrc_domain->xrcd;
	attr.cq = xrc_cq;
	srq = ibv_create_srq_ex(pd->context, &attr);
	if (!srq)
		errno = ofa_err(errno);
	else
		/* OFED 1.5 returned the granted sizes in srq_init_attr too */
		srq_init_attr->attr = attr.attr;
	return srq;
}

/* Register qpn (IBV_XRC_RCV_QPN_NEW: a new QP) once for the domain */
static int reg_once(struct ibv_xrc_domain *d, uint32_t *qpn)
{
	int ret;

	pthread_mutex_lock(&ofa_lock);
	if (*qpn != IBV_XRC_RCV_QPN_NEW && shared_find(d->shared, *qpn) >= 0) {
		/* OFED 1.5: already registered by this context, nothing to do */
		pthread_mutex_unlock(&ofa_lock);
		return 0;
	}
	ret = ibv_reg_xrc_rcv_qp(d->xrcd, qpn);
	if (!ret) {
		ret = shared_add(d->shared, *qpn);
		if (ret)
			ibv_unreg_xrc_rcv_qp(d->xrcd, *qpn);
	}
	pthread_mutex_unlock(&ofa_lock);
	return ofa_err(ret);
}

int ofa_create_xrc_rcv_qp(struct ofa_qp_init_attr *init_attr,
			  uint32_t *xrc_rcv_qpn)
{
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW;
	int ret;

	if (!init_attr || !init_attr->xrc_domain || !xrc_rcv_qpn)
		return EINVAL;
	/*
	 * OFED 1.5 took the sizes and CQs of init_attr and its kernel ignored
	 * them: a receive QP has no queues. So do we.
	 */
	ret = reg_once(init_attr->xrc_domain, &qpn);
	if (!ret)
		*xrc_rcv_qpn = qpn;
	return ret;
}

int ofa_reg_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain, uint32_t xrc_qp_num)
{
	if (!xrc_domain || xrc_qp_num == IBV_XRC_RCV_QPN_NEW)
		return EINVAL;
	return reg_once(xrc_domain, &xrc_qp_num);
}

int ofa_unreg_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
			 uint32_t xrc_qp_num)
{
	ssize_t i;
	int ret;

	if (!xrc_domain)
		return EINVAL;
	pthread_mutex_lock(&ofa_lock);
	i = shared_find(xrc_domain->shared, xrc_qp_num);
	if (i < 0) {
		/* Not registered by this context: the kernel would say so too */
		pthread_mutex_unlock(&ofa_lock);
		return EINVAL;
	}
	ret = ibv_unreg_xrc_rcv_qp(xrc_domain->xrcd, xrc_qp_num);
	if (!ret || ret == EIO)
		/* EIO: the device is gone, and the reference with it */
		shared_del(xrc_domain->shared, i);
	pthread_mutex_unlock(&ofa_lock);
	return ofa_err(ret);
}

int ofa_modify_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
			  uint32_t xrc_qp_num, struct ibv_qp_attr *attr,
			  int attr_mask)
{
	if (!xrc_domain || !attr)
		return EINVAL;
	return ofa_err(ibv_modify_xrc_rcv_qp(xrc_domain->xrcd, xrc_qp_num,
					     attr, attr_mask));
}

int ofa_query_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
			 uint32_t xrc_qp_num, struct ibv_qp_attr *attr,
			 int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct ibv_qp_init_attr ignored;

	if (!xrc_domain || !attr)
		return EINVAL;
	return ofa_err(ibv_query_xrc_rcv_qp(xrc_domain->xrcd, xrc_qp_num, attr,
					    attr_mask,
					    init_attr ? init_attr : &ignored));
}

/*
 * OFED 1.5's XRC send QP: an RC QP's send side, sending through a receive
 * QP to XRC SRQs. rdma-core's is IBV_QPT_XRC_SEND, which needs no domain;
 * OFED 1.5 required one of the PD's device, and so do we.
 */
static struct ibv_qp *create_xrc_send_qp(struct ibv_pd *pd,
					 struct ofa_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex ex = {};
	struct ibv_qp *qp;
	bool ok;

	pthread_mutex_lock(&ofa_lock);
	ok = domain_known(attr->xrc_domain) &&
	     attr->xrc_domain->context == pd->context;
	pthread_mutex_unlock(&ofa_lock);
	if (!ok) {
		errno = EINVAL;
		return NULL;
	}
	ex.qp_context = attr->qp_context;
	ex.send_cq = attr->send_cq;
	/* no receive side: the kernel refuses an SRQ on an XRC send QP */
	ex.cap = attr->cap;
	ex.cap.max_recv_wr = 0;
	ex.cap.max_recv_sge = 0;
	ex.qp_type = IBV_QPT_XRC_SEND;
	ex.sq_sig_all = attr->sq_sig_all;
	ex.comp_mask = IBV_QP_INIT_ATTR_PD;
	ex.pd = pd;
	qp = ibv_create_qp_ex(pd->context, &ex);
	if (!qp) {
		errno = ofa_err(errno);
		return NULL;
	}
	/* the granted sizes, as ibv_create_qp() gives them back */
	attr->cap = ex.cap;
	return qp;
}

struct ibv_qp *ofa_create_qp(struct ibv_pd *pd,
			     struct ibv_qp_init_attr *qp_init_attr)
{
	if (!pd || !qp_init_attr) {
		errno = EINVAL;
		return NULL;
	}
	if (qp_init_attr->qp_type != OFA_QPT_XRC)
		return ibv_create_qp(pd, qp_init_attr);
	/* only a struct ofa_qp_init_attr can carry the domain (header) */
	return create_xrc_send_qp(pd, (struct ofa_qp_init_attr *)qp_init_attr);
}

int ofa_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	if (!qp || !attr)
		return EINVAL;
	/*
	 * OFED 1.5's kernel required these two to move an XRC QP to RTR, as
	 * for RC; today's refuses them on an XRC send QP, which has no
	 * responder for them to describe.
	 */
	if (qp->qp_type == IBV_QPT_XRC_SEND)
		attr_mask &= ~(IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	return ibv_modify_qp(qp, attr, attr_mask);
}
