#!/usr/bin/env python3
"""Writes the sysfs trees of the rail fixtures under rails/ (sources and what each one plants: rails/README.md).

A topology is described the way NCCL's topology dump (NCCL_TOPO_DUMP_FILE) nests it: CPU sockets, PCIe switches
(their upstream ports), GPUs and NICs. The sysfs tree is what the kernel shows for it:

    /sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0/0000:18:01.0/0000:1a:00.0
                 root bus   root port    switch USP   switch DSP   the NIC

NCCL's dump leaves out the root port and each switch's downstream ports (ncclTopoGetXmlFromSys hangs a device from
the function two levels up); they are put back here, numbered as Broadcom and PLX switches number them (the USP's
secondary bus holds one DSP per slot). Each function directory holds class, vendor, device, subsystem ids, numa_node
and its PCIe link (max_ and current_link_speed/_width); RDMA devices get infiniband/DEV/ports/N, network devices
net/NAME; /sys/class/infiniband, /sys/class/net and /sys/bus/pci/devices hold the kernel's relative symlinks.

Two forms are written: "links" keeps real symlinks, as `cp -a` or tar of sysfs does; "capture" writes what
scripts/capture-host.sh writes (a symlink becomes NAME.link holding the target, class directories are copied).
Each tree is committed as rails/NAME.tar.gz: sysfs symlinks make loops (net/X/device -> ../../../ADDR holds net/X
again) that tools which follow links (Maven's resource copy) never leave; the tests unpack them with tar.
Re-run after changing a host here; the tests need no Python:
    python3 java/test-resources/doctor/make-rail-fixtures.py
"""
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARBALLS = os.path.join(HERE, "rails")
OUT = tempfile.mkdtemp(prefix="rail-fixtures-")
ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000"

GEN3, GEN4, GEN5 = "8.0 GT/s PCIe", "16.0 GT/s PCIe", "32.0 GT/s PCIe"
BRIDGE = "0x060400"
# ids as NCCL dumps and lspci -n print them (rails/README.md names the source of each)
BCM_GEN5 = ("0x1000", "0xc030", "0x1000", "0x100b")       # Broadcom PEX890xx Gen 5 (nccl#1189, SimAI#128)
BCM_GEN4 = ("0x1000", "0xc010", "0x1000", "0xa096")       # Broadcom PEX88xxx Gen 4 (SimAI topo_8A100_4CX6.xml)
BCM_GEN4_NV = ("0x1000", "0xc010", "0x10de", "0x13b8")    # the same switch on the HGX A100 baseboard
PLX_8796 = ("0x10b5", "0x8796", "0x10b5", "0x8796")       # PLX PEX 8796 (nccl#1519)
INTEL_RP = ("0x8086", "0x352a", "0x8086", "0x0000")       # a Sapphire Rapids root port
AMD_RP = ("0x1022", "0x1483", "0x1022", "0x1453")         # an EPYC root port
H100_SXM = ("0x10de", "0x2330", "0x10de", "0x16c1", "0x030200", "NVIDIA H100 80GB HBM3")
H100_PCIE = ("0x10de", "0x2331", "0x10de", "0x1626", "0x030200", "NVIDIA H100 PCIe")
A800_SXM = ("0x10de", "0x20f3", "0x10de", "0x1463", "0x030200", "NVIDIA A800-SXM4-80GB")
A100_PCIE = ("0x10de", "0x20b5", "0x10de", "0x1533", "0x030200", "NVIDIA A100 80GB PCIe")
RTX6000 = ("0x10de", "0x26b1", "0x10de", "0x16a1", "0x030000", "NVIDIA RTX 6000 Ada Generation")
V100_PCIE = ("0x10de", "0x1db4", "0x10de", "0x1214", "0x030200", "Tesla V100-PCIE-16GB")
CX7 = ("0x15b3", "0x1021", "0x15b3", "0x0041", "0x020700")     # ConnectX-7, lspci -vvn in sriov-network-operator#786
CX7_ETH = ("0x15b3", "0x1021", "0x15b3", "0x0041", "0x020000")
CX7_VF = ("0x15b3", "0x101e", "0x15b3", "0x0041", "0x020700")  # ConnectX family mlx5Gen Virtual Function (pci.ids)
CX6DX = ("0x15b3", "0x101d", "0x15b3", "0x0064", "0x020000")   # ConnectX-6 Dx, SimAI topo_8A100_4CX6.xml
CX6 = ("0x15b3", "0x101b", "0x15b3", "0x0007", "0x020700")     # ConnectX-6 (HDR), nccl#1505's DGX A100 dump
X710 = ("0x8086", "0x1572", "0x8086", "0x0004", "0x020000")    # Intel X710 10GbE

NDR = ("4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand")
SPR = ("GenuineIntel", 6, 143, "Intel(R) Xeon(R) Platinum 8480+")
ICX = ("GenuineIntel", 6, 106, "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz")
MILAN = ("AuthenticAMD", 25, 1, "AMD EPYC 7763 64-Core Processor")


# ---- the description ------------------------------------------------------------------------------------------------

def switch(usp, kids, ids=BCM_GEN5, speed=GEN5, width=16):
    """A PCIe switch: its upstream port's address; each kid hangs from its own downstream port."""
    return {"kind": "switch", "addr": usp, "ids": ids, "speed": speed, "width": width, "kids": kids}


def gpu(addr, model=H100_SXM, speed=GEN5, width=16):
    return {"kind": "gpu", "addr": addr, "model": model, "speed": speed, "width": width}


def port(name, netdev, state=NDR, gid=None, ndev_in_gid=False):
    """One RDMA device with one port: (state, phys_state, rate, link_layer) as the kernel prints them."""
    return {"name": name, "netdev": netdev, "state": state, "gid": gid, "ndev_in_gid": ndev_in_gid}


def nic(addr, ports, ids=CX7, speed=GEN5, width=16, netdev_speed=None, vfs=()):
    """A NIC; a dual-port card is two functions (.0 and .1), one RDMA device each (ports[i] on function i); {@code vfs}:
    SR-IOV virtual functions of function 0, one RDMA device each, on the functions after the ports'."""
    return {"kind": "nic", "addr": addr, "ids": ids, "speed": speed, "width": width, "ports": ports,
            "netdev_speed": netdev_speed, "vfs": vfs}


def eth(addr, netdev, ids=X710, speed=GEN3, width=8, mbps=10000, up=True):
    """A plain Ethernet function (no RDMA)."""
    return {"kind": "eth", "addr": addr, "ids": ids, "speed": speed, "width": width, "netdev": netdev,
            "mbps": mbps, "up": up}


def management(addr, rc, rp):
    """The 1GbE port a node is reached by (an Intel i350 on a root port of socket 0)."""
    return root(0, eth(addr, "eno1", ids=("0x8086", "0x1521", "0x8086", "0x0001"), speed="5.0 GT/s PCIe", width=4,
                       mbps=1000), rc=rc, rp=rp)


def root(numa, top, rp_ids=INTEL_RP, speed=GEN5, rc=None, rp="01.0"):
    """A root port above {@code top} on root complex pci0000:RC (default: the bus below top's) on this NUMA node."""
    return {"numa": numa, "top": top, "rp_ids": rp_ids, "speed": speed, "rc": rc, "rp": rp}


# ---- writing sysfs --------------------------------------------------------------------------------------------------

class Tree:
    def __init__(self, base, form):
        self.base = base
        self.form = form
        self.links = []          # (path, target) absolute host paths
        self.addresses = set()
        self.ifindex = 1
        self.ip = [("lo", ["127.0.0.1/8"])]
        self.gpus = []

    def path(self, host_path):
        return os.path.join(self.base, host_path.lstrip("/"))

    def w(self, host_path, text):
        p = self.path(host_path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text + ("\n" if text and not text.endswith("\n") else ""))

    def link(self, host_path, target):
        self.links.append((host_path, target))

    def function(self, path, ids, cls, numa, speed, width, current=None):
        addr = os.path.basename(path)
        assert addr not in self.addresses, "two functions at " + addr
        self.addresses.add(addr)
        vendor, device, svendor, sdevice = ids
        attrs = [("class", cls), ("vendor", vendor), ("device", device), ("numa_node", str(numa))]
        if cls == BRIDGE:  # NCCL reads a switch's subsystem ids to flatten Broadcom's two-level switches
            attrs += [("subsystem_vendor", svendor), ("subsystem_device", sdevice)]
        for name, value in attrs:
            self.w(path + "/" + name, value)
        if speed:
            self.w(path + "/max_link_speed", speed)
            self.w(path + "/max_link_width", str(width))
            if current:
                self.w(path + "/current_link_speed", current[0])
                self.w(path + "/current_link_width", str(current[1]))
        self.link("/sys/bus/pci/devices/" + addr, path)

    def netdev(self, name, device_path, type_=1, mbps=None, up=True, driver=None, addresses=()):
        d = (device_path + "/net/" + name) if device_path else "/sys/devices/virtual/net/" + name
        self.w(d + "/ifindex", str(self.next_index()))
        self.w(d + "/flags", "0x1003" if up else "0x1002")
        self.w(d + "/operstate", "up" if up else "down")
        self.w(d + "/type", str(type_))
        if mbps and up:
            self.w(d + "/speed", str(mbps))
        if device_path:
            self.link(d + "/device", device_path)
            if driver:
                self.link(device_path + "/driver", "/sys/bus/pci/drivers/" + driver)
                os.makedirs(self.path("/sys/bus/pci/drivers/" + driver), exist_ok=True)
        else:
            self.w(d + "/uevent", "DEVTYPE=" + ("bond" if name.startswith("bond") else "veth"))
        self.link("/sys/class/net/" + name, d)
        self.ip.append((name, list(addresses)))

    def next_index(self):
        self.ifindex += 1
        return self.ifindex


def write_host(name, host, roots, form="links", env="", extra=None, cpu=SPR, numa_nodes=(0, 1), driver="mlx5_core"):
    base = os.path.join(OUT, name)
    shutil.rmtree(base, ignore_errors=True)
    t = Tree(base, form)
    t.w("/sys/class/net/lo/ifindex", "1")
    t.w("/sys/class/net/lo/flags", "0x9")
    t.w("/sys/class/net/lo/operstate", "unknown")
    t.w("/sys/class/net/lo/type", "772")
    for r in roots:
        top = r["top"]
        root_bus = r["rc"] if r["rc"] is not None else int(top["addr"].split(":")[1], 16) - 1
        rp = f"0000:{root_bus:02x}:{r['rp']}"
        rc = f"/sys/devices/pci0000:{root_bus:02x}"
        if rp not in t.addresses:  # root ports of one root complex share its bus
            t.function(rc + "/" + rp, r["rp_ids"], BRIDGE, r["numa"], r["speed"], 16)
        emit(t, rc + "/" + rp, top, r["numa"], driver)
    for n in numa_nodes:
        os.makedirs(t.path(f"/sys/devices/system/node/node{n}"), exist_ok=True)
    vendor, family, model, model_name = cpu
    t.w("/proc/cpuinfo", f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model}\n"
                         f"model name\t: {model_name}\n")
    t.w("/proc/sys/kernel/hostname", host)
    t.w("/proc/sys/kernel/osrelease", "5.15.0-119-generic")
    t.w("/proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units\n"
                             "Max locked memory         unlimited            unlimited            bytes")
    t.w("/proc/self/status", "Name:\tcat\nCapEff:\t000001ffffffffff")
    t.w("/proc/1/cgroup", "0::/init.scope")
    t.w("/proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.90.07  Fri May 31 09:35:42 UTC 2024")
    t.w("/sys/module/nvidia_peermem/version", "1.1")
    for d in ("uverbs0", "rdma_cm"):
        t.w("/dev/infiniband/" + d, "")
    for bus, model in t.gpus:
        t.w(f"/proc/driver/nvidia/gpus/{bus}/information",
            f"Model: \t\t {model}\nIRQ:   \t\t 18\nBus Type: \t PCIe\nBus Location: \t {bus}\nGPU Excluded: \t No")
    t.w("/ncclbench/env", env)
    t.w("/ncclbench/versions", "nccl=2.21.5\nnccl_library=/usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
                               "verbs=/usr/lib/x86_64-linux-gnu/libibverbs.so.1")
    t.w("/ncclbench/dev-shm-bytes", str(1 << 36))
    t.w("/ncclbench/lspci-vvv.txt", "")
    if extra:
        extra(t)
    t.w("/ncclbench/ip-addr.json", json.dumps(
        [{"ifindex": i + 1, "ifname": n, "addr_info": [{"family": "inet", "local": a.split("/")[0],
                                                        "prefixlen": int(a.split("/")[1])} for a in addrs]}
         for i, (n, addrs) in enumerate(t.ip)], indent=1))
    finish(t)
    # a fixed owner and time, so that re-running changes no tarball whose tree did not change
    subprocess.run(["tar", "-C", base, "--sort=name", "--owner=0", "--group=0", "--numeric-owner",
                    "--mtime=2026-12-01 00:00:00", "-cf", os.path.join(TARBALLS, name + ".tar"), "."], check=True)
    subprocess.run(["gzip", "-n", "-f", os.path.join(TARBALLS, name + ".tar")], check=True)


def emit(t, parent, node, numa, driver, dsp_dev=None):
    """The node below {@code parent} (a root port or a downstream port)."""
    path = parent + "/" + node["addr"]
    kind = node["kind"]
    if kind == "switch":
        t.function(path, node["ids"], BRIDGE, numa, node["speed"], node["width"])
        sec = int(node["addr"].split(":")[1], 16) + 1
        for i, kid in enumerate(node["kids"]):
            dsp = f"{path}/0000:{sec:02x}:{i:02x}.0"
            t.function(dsp, node["ids"], BRIDGE, numa, node["speed"], 16)
            emit(t, dsp, kid, numa, driver)
    elif kind == "gpu":
        vendor, device, sv, sd, cls, model = node["model"]
        t.function(path, (vendor, device, sv, sd), cls, numa, node["speed"], node["width"])
        t.gpus.append((node["addr"], model))
    elif kind == "eth":
        t.function(path, node["ids"][:4], node["ids"][4] if len(node["ids"]) > 4 else "0x020000", numa, node["speed"],
                   node["width"])
        t.netdev(node["netdev"], path, mbps=node["mbps"], up=node["up"], driver="i40e",
                 addresses=[f"10.{t.ifindex}.0.7/24"] if node["up"] else [])
    else:
        ids = node["ids"]
        for f, p in enumerate(node["ports"]):
            fpath = path[:-1] + str(f)
            t.function(fpath, ids[:4], ids[4], numa, node["speed"], node["width"])
            rdma(t, fpath, p, node.get("netdev_speed"), driver)
        for v, p in enumerate(node.get("vfs", ())):
            # a VF: the PF's class, the VF device id, no PCIe link of its own, a physfn link to the PF
            fpath = path[:-1] + str(len(node["ports"]) + v)
            t.function(fpath, CX7_VF[:4], CX7_VF[4], numa, None, None)
            t.link(fpath + "/physfn", path)
            rdma(t, fpath, p, node.get("netdev_speed"), driver)


def rdma(t, fpath, p, netdev_speed, driver):
    state, phys, rate, layer = p["state"]
    d = fpath + "/infiniband/" + p["name"]
    t.link(d + "/device", fpath)
    t.link("/sys/class/infiniband/" + p["name"], d)
    pd = d + "/ports/1"
    t.w(pd + "/state", state)
    t.w(pd + "/phys_state", phys)
    t.w(pd + "/rate", rate)
    t.w(pd + "/link_layer", layer)
    ib = layer == "InfiniBand"
    up = state.endswith("ACTIVE")
    guid = "fe80:0000:0000:0000:a088:c203:00" + f"{(len(t.addresses) * 7) % 256:02x}:{len(t.addresses):04x}"
    if ib:
        t.w(pd + "/gids/0", p["gid"] or guid)
        t.w(pd + "/gid_attrs/types/0", "IB/RoCE v1")
    else:
        t.w(pd + "/gids/0", p["gid"] or guid.replace("a088:c203", "0a88:c2ff"))
        t.w(pd + "/gid_attrs/types/0", "IB/RoCE v1")
        t.w(pd + "/gid_attrs/ndevs/0", p["netdev"])
        if up:
            t.w(pd + "/gids/1", f"0000:0000:0000:0000:0000:ffff:0a{len(t.addresses):02x}:0007")
            t.w(pd + "/gid_attrs/types/1", "RoCE v2")
            t.w(pd + "/gid_attrs/ndevs/1", p["netdev"])
    t.w(pd + "/gids/" + ("1" if ib or not up else "2"), ZERO_GID)
    if p["netdev"] and not p["netdev"].startswith("bond"):
        # IPoIB comes up only where the site configures it; a RoCE port's interface follows the link
        t.netdev(p["netdev"], fpath, type_=32 if ib else 1, mbps=netdev_speed or rate_mbps(rate), up=up and not ib,
                 driver=driver, addresses=[] if ib or not up else [f"10.{len(t.addresses)}.0.7/24"])


def rate_mbps(rate):
    return int(float(rate.split()[0]) * 1000)


def finish(t):
    """Symlinks as the kernel makes them (relative), or as capture-host.sh stores them."""
    for host_path, target in t.links:
        p = t.path(host_path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if t.form == "links":  # as the kernel words them: "../../../0000:1a:00.0", not "../.."
            rel = os.path.relpath(os.path.dirname(t.path(target)), os.path.dirname(p))
            os.symlink(os.path.join(rel, os.path.basename(target)), p)
    if t.form == "capture":
        capture(t)


def capture(t):
    """What scripts/capture-host.sh keeps: class directories copied, every other symlink as NAME.link (readlink -f)."""
    classes = [(h, tg) for h, tg in t.links if h.startswith("/sys/class/")]
    drivers = {h[:-len("/driver")]: tg for h, tg in t.links if h.endswith("/driver")}
    for h, tg in classes:
        shutil.copytree(t.path(tg), t.path(h), dirs_exist_ok=True)
    for host_path, target in t.links:
        if host_path.startswith("/sys/class/"):
            continue
        t.w(host_path + ".link", target)
        for h, tg in classes:  # the class copies carry their own device links
            if host_path.startswith(tg + "/"):
                t.w(h + host_path[len(tg):] + ".link", target)
                if host_path.endswith("/device") and target in drivers:
                    t.w(h + host_path[len(tg):] + "/driver.link", drivers[target])
    for h, tg in classes:  # capture-host.sh writes the names under device/net beside each RDMA device
        if h.startswith("/sys/class/infiniband/"):
            dev = os.path.dirname(os.path.dirname(tg))
            nets = sorted(os.listdir(t.path(dev + "/net"))) if os.path.isdir(t.path(dev + "/net")) else []
            t.w(h + "/netdevs", " ".join(nets))


# ---- the hosts ------------------------------------------------------------------------------------------------------

# An HGX H100 of the Dell XE9680 kind: each GPU and its ConnectX-7 share a Broadcom Gen 5 switch (GPU at bus G, NIC at
# G+1); a dual-port ConnectX-6 Dx (Ethernet, storage) sits on the switches of GPU 0 and GPU 4. NIC names and buses from
# imbue-ai/cluster-health#4 (ibdev2netdev of an H100 node); switch and GPU ids from the NCCL dumps in nccl#1189 and
# aliyun/SimAI#128.
GPU_BUSES = (0x19, 0x3b, 0x4c, 0x5d, 0x9b, 0xbb, 0xcb, 0xdb)
IB_NAMES = ("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11")
STORAGE = {0x19: ("mlx5_1", "mlx5_2"), 0x9b: ("mlx5_7", "mlx5_8")}
ETH_UP = ("4: ACTIVE", "5: LinkUp", "100 Gb/sec (4X EDR)", "Ethernet")
ETH_UNCABLED = ("1: DOWN", "3: Disabled", "40 Gb/sec (4X QDR)", "Ethernet")


def hgx_h100(states=None, missing=(), ib_names=IB_NAMES, moved=None, vfs=False, storage_on_root=False):
    """{rail index: (state tuple, netdev or None)} overrides; {@code missing}: rails whose NIC is not on the bus;
    {@code moved}: {rail: bus} NICs seated in a slot on a root port of socket 0 instead of their GPU's switch;
    {@code vfs}: two SR-IOV VFs on each rail's ConnectX-7 (mlx5_12 up); the first given to a pod (ACTIVE), the second
    given to none (INIT: the subnet manager gave its vport nothing); {@code storage_on_root}: the storage cards are
    dual-port ConnectX-7s (the compute NICs' model, both ports NDR InfiniBand and ACTIVE) in slots on a root port of
    each socket, the way a DGX H100 seats its two storage cards, plus the 1GbE management port."""
    states = states or {}
    moved = moved or {}
    roots = []
    for i, g in enumerate(GPU_BUSES):
        kids = [gpu(f"0000:{g:02x}:00.0")]
        if i in moved:
            b = moved[i]
            roots.append(root(0, nic(f"0000:{b:02x}:00.0", [port(ib_names[i], f"ibp{b}s0")])))
        elif i not in missing:
            st, dev = states.get(i, (NDR, None))
            vf = [port(f"mlx5_{12 + 2 * i}", f"ibp{g + 1}s0f1"),
                  port(f"mlx5_{13 + 2 * i}", f"ibp{g + 1}s0f2", ("2: INIT", "5: LinkUp", "400 Gb/sec (4X NDR)",
                                                                "InfiniBand"))] if vfs else ()
            kids.append(nic(f"0000:{g + 1:02x}:00.0", [port(ib_names[i], dev or f"ibp{g + 1}s0", st)], vfs=vf))
        if g in STORAGE and storage_on_root:
            a, b = STORAGE[g]
            bus = 0x2a if i < 4 else 0xaa
            roots.append(root(0 if i < 4 else 1, nic(f"0000:{bus:02x}:00.0", [port(a, f"ibp{bus}s0f0"),
                                                                            port(b, f"ibp{bus}s0f1")])))
        elif g in STORAGE:
            a, b = STORAGE[g]
            kids.append(nic(f"0000:{g + 2:02x}:00.0", [port(a, f"enp{g + 2}s0f0np0", ETH_UP),
                                                       port(b, f"enp{g + 2}s0f1np1", ETH_UNCABLED)],
                            ids=CX6DX, speed=GEN4))
        roots.append(root(0 if i < 4 else 1, switch(f"0000:{g - 2:02x}:00.0", kids)))
    return roots + ([management("0000:6b:00.0", 0x6a, "01.0")] if storage_on_root else [])


def a800_roce():
    """aliyun/SimAI SimCCL/test/topo_8A100_4CX6.xml as dumped by NCCL: 8 A800, five RoCE bonds (ConnectX-6 Dx, 200G),
    two GPUs per NIC behind nested Broadcom Gen 4 switches, bond 0 on a root port of its own."""
    def pair(top, sub1, sub1b, g1, sub2, sub2b, g2, nic_addr, bond):
        return switch(top, [
            switch(sub1, [switch(sub1b, [gpu(g1, A800_SXM, GEN4)], BCM_GEN4_NV, GEN4)], BCM_GEN4, GEN4),
            switch(sub2, [switch(sub2b, [gpu(g2, A800_SXM, GEN4)], BCM_GEN4_NV, GEN4),
                          nic(nic_addr, [port(bond, bond.replace("mlx5_", ""), ("4: ACTIVE", "5: LinkUp",
                                                                              "200 Gb/sec (4X HDR)", "Ethernet"))],
                              ids=CX6DX, speed=GEN4)], BCM_GEN4, GEN4)], BCM_GEN4, GEN4)
    roce = ("4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "Ethernet")
    return [
        root(0, nic("0000:06:00.0", [port("mlx5_bond_0", "bond_0", roce)], ids=CX6DX, speed=GEN4), speed=GEN4),
        root(0, pair("0000:0c:00.0", "0000:0e:00.0", "0000:11:00.0", "0000:13:00.0", "0000:15:00.0", "0000:17:00.0",
                     "0000:19:00.0", "0000:1a:00.0", "mlx5_bond_1"), speed=GEN4),
        root(0, pair("0000:41:00.0", "0000:43:00.0", "0000:46:00.0", "0000:48:00.0", "0000:49:00.0", "0000:4b:00.0",
                     "0000:4d:00.0", "0000:4f:00.0", "mlx5_bond_2"), speed=GEN4),
        root(1, pair("0000:82:00.0", "0000:84:00.0", "0000:87:00.0", "0000:89:00.0", "0000:8a:00.0", "0000:8c:00.0",
                     "0000:8e:00.0", "0000:90:00.0", "mlx5_bond_3"), speed=GEN4),
        root(1, pair("0000:a6:00.0", "0000:a8:00.0", "0000:ab:00.0", "0000:ad:00.0", "0000:af:00.0", "0000:b1:00.0",
                     "0000:b3:00.0", "0000:b4:00.0", "mlx5_bond_4"), speed=GEN4),
    ]


def bonds(t):
    """The RoCE LAG interfaces bond_0..4 (virtual, 200 Gb/s) the bonded RDMA devices carry."""
    for i in range(5):
        t.netdev(f"bond_{i}", None, mbps=200000, addresses=[f"10.0.{i}.7/24"])


def h100_pcie_plx():
    """nccl#1519 (an 8 x H100 PCIe node): PLX PEX 8796 switches, each with two GPUs and two 200G NICs (NET[25.0])."""
    hdr = ("4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "InfiniBand")
    roots = []
    for numa, sw, gpus_, nics in ((0, 0x02, (0x04, 0x05), (0x06, 0x07)), (0, 0x09, (0x0b, 0x0c), (0x0d, 0x0e)),
                                  (1, 0x82, (0x84, 0x85), (0x86, 0x87)), (1, 0x89, (0x8b, 0x8c), (0x8d, 0x8e))):
        kids = [gpu(f"0000:{b:02x}:00.0", H100_PCIE, GEN4) for b in gpus_]
        kids += [nic(f"0000:{b:02x}:00.0", [port(f"mlx5_{len(roots) * 2 + k}", f"ibp{b}s0", hdr)], ids=CX6,
                     speed=GEN4) for k, b in enumerate(nics)]
        roots.append(root(numa, switch(f"0000:{sw:02x}:00.0", kids, PLX_8796, GEN4), speed=GEN4))
    return [management("0000:6b:00.0", 0x6a, "01.0")] + roots


def pcie_two_sockets(nics_on_both):
    """nccl#601's two-socket PCIe node (GPUs 02, 03 on CPU 0; 83, 84 on CPU 1; no switches: each on a root port)."""
    roots = [root(0, gpu("0000:02:00.0", A100_PCIE, GEN4), AMD_RP, GEN4, rc=0x00, rp="01.1"),
             root(0, gpu("0000:03:00.0", A100_PCIE, GEN4), AMD_RP, GEN4, rc=0x00, rp="01.2"),
             root(1, gpu("0000:83:00.0", A100_PCIE, GEN4), AMD_RP, GEN4, rc=0x80, rp="01.1"),
             root(1, gpu("0000:84:00.0", A100_PCIE, GEN4), AMD_RP, GEN4, rc=0x80, rp="01.2")]
    hdr = ("4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "InfiniBand")
    roots.append(root(0, nic("0000:41:00.0", [port("mlx5_0", "ibp65s0", hdr)], ids=CX6, speed=GEN4), AMD_RP, GEN4,
                      rc=0x40, rp="01.1"))
    if nics_on_both:
        roots.append(root(1, nic("0000:c1:00.0", [port("mlx5_1", "ibp193s0", hdr)], ids=CX6, speed=GEN4), AMD_RP,
                          GEN4, rc=0xc0, rp="01.1"))
    return [management("0000:05:00.0", 0x00, "07.1")] + roots


def socket_only():
    """nccl#601: four V100 PCIe and four 10GbE ports (two dual-port X710, one per socket), no RDMA: NET/Socket."""
    return [root(0, gpu("0000:02:00.0", V100_PCIE, GEN3), speed=GEN3, rc=0x00, rp="01.0"),
            root(0, gpu("0000:03:00.0", V100_PCIE, GEN3), speed=GEN3, rc=0x00, rp="02.0"),
            root(1, gpu("0000:83:00.0", V100_PCIE, GEN3), speed=GEN3, rc=0x80, rp="01.0"),
            root(1, gpu("0000:84:00.0", V100_PCIE, GEN3), speed=GEN3, rc=0x80, rp="02.0"),
            root(0, switch("0000:18:00.0", [eth("0000:1a:00.0", "ens1f0"), eth("0000:1b:00.0", "ens1f1")], PLX_8796,
                           GEN3), speed=GEN3),
            root(1, switch("0000:98:00.0", [eth("0000:9a:00.0", "ens2f0"), eth("0000:9b:00.0", "ens2f1")], PLX_8796,
                           GEN3), speed=GEN3)]


def no_nic(t):
    """A container's view: the host's GPUs in sysfs, only a veth of its own."""
    t.netdev("eth0", None, mbps=10000, addresses=["172.17.0.2/16"])


def main():
    os.makedirs(TARBALLS, exist_ok=True)  # each host's tarball is rewritten whole; README.md stays
    write_host("h100-8x8-healthy", "h100-node-01", hgx_h100())
    write_host("h100-8x8-healthy-capture", "h100-node-01", hgx_h100(), form="capture")
    write_host("h100-port-2x", "h100-node-07", hgx_h100({3: (("4: ACTIVE", "5: LinkUp", "200 Gb/sec (2X NDR)",
                                                               "InfiniBand"), None)}))
    write_host("h100-port-hdr", "h100-node-07", hgx_h100({3: (("4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)",
                                                                "InfiniBand"), None)}), form="capture")
    write_host("h100-port-ethernet", "h100-node-09", hgx_h100({5: (("4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)",
                                                                     "Ethernet"), "enp188s0np0")}))
    write_host("h100-ports-down", "h100-node-11", hgx_h100({2: (("1: DOWN", "2: Polling", "10 Gb/sec (4X SDR)",
                                                                  "InfiniBand"), None),
                                                             6: (("1: DOWN", "3: Disabled", "40 Gb/sec (4X QDR)",
                                                                  "InfiniBand"), None)}))
    write_host("h100-nic-missing", "h100-node-12", hgx_h100(missing=(7,)))
    write_host("h100-sriov-vfs", "h100-node-15", hgx_h100(vfs=True))
    write_host("h100-storage-cx7-on-root", "dgx-h100-02", hgx_h100(storage_on_root=True))
    write_host("h100-sriov-vfs-port-2x", "h100-node-16", hgx_h100({3: (("4: ACTIVE", "5: LinkUp",
                                                                         "200 Gb/sec (2X NDR)", "InfiniBand"), None)},
                                                                  vfs=True), form="capture")
    write_host("h100-nic-other-socket", "h100-node-14", hgx_h100(moved={7: 0x2a}))
    write_host("a800-roce-2gpu-per-nic", "a800-node-3", a800_roce(), form="capture", extra=bonds, cpu=ICX)
    write_host("h100-pcie-2gpu-per-switch", "h100p-node-1", h100_pcie_plx(), cpu=ICX)
    write_host("pcie-nic-across-socket", "gpu-ws-2", pcie_two_sockets(False), cpu=MILAN)
    write_host("socket-only-10gbe", "gpu23", socket_only(), cpu=ICX)
    write_host("gpus-no-nic", "trainer-7", [root(0, gpu("0000:01:00.0", RTX6000, GEN4), speed=GEN4, rc=0, rp="01.1"),
                                            root(0, gpu("0000:02:00.0", RTX6000, GEN4), speed=GEN4, rc=0, rp="01.2")],
               extra=no_nic, numa_nodes=(0,), cpu=MILAN)


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(OUT, ignore_errors=True)
