p='/work/main/patches/0000-cover-letter.patch'
s=open(p).read()
reps=[
('''- Patch 2: ib_core gets a small registration API''','''- Patch 3: ib_core gets a small registration API'''),
('''  receive QPs by number in an xarray (O(log n) lookup however many it
  holds). Its first reference is one ib_open_qp() handle''',
'''  receive QPs by number in an rbtree whose node lives in the
  registration record (O(log n) lookup however many it holds, one small
  allocation per owner and QP). Its first reference is one ib_open_qp()
  handle'''),
('- Patch 5: uverbs adds commands 41-44','- Patch 6: uverbs adds commands 41-44'),
('(split out in patch 4)','(split out in patch 5)'),
('- Patch 6: mlx4 builds XRC TGT QPs','- Patch 7: mlx4 builds XRC TGT QPs'),
('''- Patch 1 charges ib_open_qp() handles to the caller's memory cgroup,
  which registrations (and OPEN_QP) allocate on userspace's behalf.''',
'''- Patch 2 charges ib_open_qp() handles to the caller's memory cgroup,
  which registrations (and OPEN_QP) allocate on userspace's behalf.
- Patch 1 is a fix for mainline found on the way, independent of the
  rest and marked for stable: ib_uverbs_open_qp() never gave its handle
  an async event file, so QPs opened with OPEN_QP lost every event.
  With it, a file holding a QP through OPEN_QP and through a
  registration gets one event per handle, each in its own format.'''),
('''  (record, xarray slot and, by patch 1, the ib_open_qp() handle), and''',
'''  (the record and, by patch 2, the ib_open_qp() handle), and'''),
('- Patches 3 and 6 add KUnit suites (ib_xrc_rcv, 28 cases with the','- Patches 4 and 7 add KUnit suites (ib_xrc_rcv, 27 cases with the'),
('No RDMA hardware was available. Patch 6 and everything','No RDMA hardware was available. Patch 7 and everything'),
]
for a,b in reps:
    assert a in s, a
    s=s.replace(a,b)
open(p,'w').write(s)
