#!/usr/bin/env python3
"""Writes the capture trees of the seed hosts (the layout scripts/capture-host.sh writes) under hosts/.

Re-run after changing a host here; the trees are committed so the tests need no Python:
    python3 java/test-resources/doctor/make-fixtures.py
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000"


def w(root, path, text):
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text + ("\n" if text and not text.endswith("\n") else ""))


def iface(root, name, index, up=True, running=True, loopback=False, speed=None, type_=1, driver=None, device=None):
    d = f"/sys/class/net/{name}"
    flags = (0x1 if up else 0) | (0x8 if loopback else 0) | 0x1000
    w(root, d + "/ifindex", str(index))
    w(root, d + "/flags", hex(flags))
    w(root, d + "/operstate", "unknown" if loopback else ("up" if up and running else "down"))
    w(root, d + "/type", str(772 if loopback else type_))
    if speed:
        w(root, d + "/speed", str(speed))
    if device:
        w(root, d + "/device.link", device)
        if driver:
            w(root, d + "/device/driver.link", "/sys/bus/pci/drivers/" + driver)


def ib(root, name, device, netdevs, ports):
    d = f"/sys/class/infiniband/{name}"
    w(root, d + "/device.link", device)
    w(root, d + "/netdevs", " ".join(netdevs))
    for n, (state, phys, rate, layer, gids) in ports.items():
        pd = f"{d}/ports/{n}"
        w(root, pd + "/state", state)
        w(root, pd + "/phys_state", phys)
        w(root, pd + "/rate", rate)
        w(root, pd + "/link_layer", layer)
        for i, (gid, typ, ndev) in enumerate(gids):
            w(root, f"{pd}/gids/{i}", gid)
            w(root, f"{pd}/gid_attrs/types/{i}", typ)
            if ndev:
                w(root, f"{pd}/gid_attrs/ndevs/{i}", ndev)
        w(root, f"{pd}/gids/{len(gids)}", ZERO_GID)


def addrs(root, links):
    doc = []
    for i, (name, infos) in enumerate(links, 1):
        doc.append({"ifindex": i, "ifname": name, "addr_info": [
            {"family": "inet6" if ":" in a else "inet", "local": a.split("/")[0], "prefixlen": int(a.split("/")[1])}
            for a in infos]})
    w(root, "/ncclbench/ip-addr.json", json.dumps(doc, indent=1))


def base(root, host, kernel="5.15.0-91-generic", memlock="unlimited", capeff="000001ffffffffff", shm=68719476736,
         driver=None, gpus=(), env="", versions="", lspci="", cgroup="0::/init.scope", dockerenv=False,
         dev_ib=("uverbs0", "rdma_cm"), peermem=False):
    w(root, "/proc/sys/kernel/osrelease", kernel)
    w(root, "/proc/sys/kernel/hostname", host)
    w(root, "/proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units\n"
      f"Max locked memory         {memlock}            {memlock}            bytes")
    w(root, "/proc/self/status", f"Name:\tcat\nCapEff:\t{capeff}")
    w(root, "/proc/1/cgroup", cgroup)
    w(root, "/ncclbench/dev-shm-bytes", str(shm))
    w(root, "/ncclbench/env", env)
    w(root, "/ncclbench/versions", versions)
    w(root, "/ncclbench/lspci-vvv.txt", lspci)
    if dockerenv:
        w(root, "/.dockerenv", "")
    if dev_ib is not None:
        for n in dev_ib:
            w(root, "/dev/infiniband/" + n, "")
    if driver:
        w(root, "/proc/driver/nvidia/version", driver)
    for bus, model, path in gpus:
        w(root, f"/proc/driver/nvidia/gpus/{bus}/information", f"Model: \t\t {model}\nBus Location: \t {bus}")
        w(root, f"/sys/bus/pci/devices/{bus.lower()}.link", path)
    if peermem:
        w(root, "/sys/module/nvidia_peermem/version", "1.1")


PROPRIETARY = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023"
OPEN = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Tue Mar  5 22:23:56 UTC 2024"
SW = "/sys/devices/pci0000:17/0000:17:00.0/0000:18:00.0"  # a PCIe switch's upstream port under root port 17:00.0
HCA = SW + "/0000:19:00.0/0000:1a:00.0"
GPU_SAME_SWITCH = SW + "/0000:19:04.0/0000:1b:00.0"
GPU_OTHER_ROOT = "/sys/devices/pci0000:a0/0000:a0:01.0/0000:a1:00.0/0000:a2:00.0/0000:a3:00.0"
IB_GID = [("fe80:0000:0000:0000:0c42:a103:0065:2b4c", "IB/RoCE v1", None)]
NO_ACS = """17:00.0 PCI bridge: Intel Corporation Sky Lake-E PCI Express Root Port A (rev 07)
\tCapabilities: [110 v1] Access Control Services
\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-
\t\tACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-
"""
ACS_ON = NO_ACS + """18:00.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0)
\tCapabilities: [f24 v1] Access Control Services
\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+
\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-
"""


def a100_node(root, host, env="", lspci=NO_ACS, peermem=True, driver=PROPRIETARY, kernel="5.15.0-91-generic"):
    """The case study's node: lo, eth0 (10 GbE management), rdma0 (IPoIB on mlx5_0, 100G), 4 x A100."""
    iface(root, "lo", 1, loopback=True)
    iface(root, "eth0", 2, speed=10000, driver="ixgbe", device="/sys/devices/pci0000:00/0000:00:1c.0/0000:03:00.0")
    iface(root, "rdma0", 3, type_=32, driver="mlx5_core", device=HCA)
    addrs(root, [("lo", ["127.0.0.1/8", "::1/128"]), ("eth0", ["10.0.0.1/24", "fe80::a00:27ff:fe4e:66a1/64"]),
                 ("rdma0", ["192.168.100.1/24"])])
    ib(root, "mlx5_0", HCA, ["rdma0"], {1: ("4: ACTIVE", "5: LinkUp", "100 Gb/sec (2X HDR)", "InfiniBand", IB_GID)})
    gpus = [("0000:1b:00.0", "NVIDIA A100-SXM4-40GB", GPU_SAME_SWITCH)] + [
        (f"0000:{b}:00.0", "NVIDIA A100-SXM4-40GB", GPU_OTHER_ROOT.replace("a3", b)) for b in ("a3", "b3", "c3")]
    base(root, host, driver=driver, gpus=gpus, env=env, lspci=lspci, peermem=peermem, kernel=kernel,
         versions="nccl=2.18.5\nnccl_library=/usr/lib/x86_64-linux-gnu/libnccl.so.2\ncuda_runtime=12.1.105\n"
                  "verbs=/usr/lib/x86_64-linux-gnu/libibverbs.so.1\nofed=MLNX_OFED_LINUX-23.10-0.5.5.0")


def main():
    out = os.path.join(HERE, "hosts")
    shutil.rmtree(out, ignore_errors=True)

    # 1. the case study: NCCL_SOCKET_IFNAME unset, NCCL's order picks eth0 (10 GbE) over rdma0 (100G IPoIB)
    a100_node(os.path.join(out, "a100-two-nic"), "gpu-node-0")

    # 2. the lesson's ml-node-07: two RTX 4000 Ada, one eth0, no RDMA at all
    r = os.path.join(out, "two-gpu-eth0-only")
    iface(r, "lo", 1, loopback=True)
    iface(r, "eth0", 2, speed=25000, driver="virtio-pci", device="/sys/devices/pci0000:00/0000:00:05.0/virtio2")
    addrs(r, [("lo", ["127.0.0.1/8"]), ("eth0", ["172.232.181.15/24"])])
    base(r, "ml-node-07", driver=OPEN, dev_ib=None, gpus=[
        ("0000:00:02.0", "NVIDIA RTX 4000 Ada Generation", "/sys/devices/pci0000:00/0000:00:02.0"),
        ("0000:00:03.0", "NVIDIA RTX 4000 Ada Generation", "/sys/devices/pci0000:00/0000:00:03.0")],
        versions="nccl=2.27.3\nnccl_library=/usr/lib/x86_64-linux-gnu/libnccl.so.2\nverbs=", lspci=NO_ACS)

    # 3. a Kubernetes pod: the host's mlx5_0 shows in sysfs, but no /dev/infiniband, 64 MB /dev/shm, 64 KiB memlock
    r = os.path.join(out, "container-no-devices")
    iface(r, "lo", 1, loopback=True)
    iface(r, "eth0", 3, speed=10000)
    addrs(r, [("lo", ["127.0.0.1/8"]), ("eth0", ["10.244.1.5/24"])])
    ib(r, "mlx5_0", HCA, [], {1: ("4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand", IB_GID)})
    base(r, "trainer-0", memlock="65536", capeff="00000000a80425fb", shm=67108864, dockerenv=True, dev_ib=None,
         cgroup="0::/kubepods/burstable/pod1234/abcd", driver=OPEN, peermem=True,
         gpus=[(f"0000:{b}:00.0", "NVIDIA H100 80GB HBM3", GPU_OTHER_ROOT.replace("a3", b)) for b in ("1b", "29")],
         env="KUBERNETES_SERVICE_HOST=10.96.0.1\nHOME=/root",
         versions="nccl=2.21.5\nverbs=/usr/lib/x86_64-linux-gnu/libibverbs.so.1", lspci="")

    # 4. ACS redirect re-enabled by a BIOS reset, no peer memory module, proprietary driver on kernel 5.4
    a100_node(os.path.join(out, "acs-no-peermem"), "gpu-node-20", lspci=ACS_ON, peermem=False, kernel="5.4.0-150-generic")

    # 5. the laptop-copied setting: NCCL_IB_DISABLE=1 in ~/.nccl.conf on a healthy IB node
    r = os.path.join(out, "laptop-ib-disable")
    a100_node(r, "gpu-node-21", env="HOME=/home/alice\nNCCL_SOCKET_IFNAME=rdma0\nNCCL_DEBUG=WARN")
    w(r, "/home/alice/.nccl.conf", "# copied from my laptop\nNCCL_IB_DISABLE=1\nNCCL_P2P_DISABLE=1")

    # 6. a RoCE node: mlx5_0 (RoCE) has an empty GID table, mlx5_1 is cabled but Polling (no link)
    r = os.path.join(out, "roce-gid-port-down")
    iface(r, "lo", 1, loopback=True)
    iface(r, "ens1f0np0", 2, speed=100000, driver="mlx5_core", device=HCA)
    iface(r, "ens1f1np1", 3, up=True, running=False, speed=None, driver="mlx5_core", device=HCA.replace("1a:00.0", "1a:00.1"))
    addrs(r, [("lo", ["127.0.0.1/8"]), ("ens1f0np0", ["10.1.0.7/24"]), ("ens1f1np1", ["10.2.0.7/24"])])
    ib(r, "mlx5_0", HCA, ["ens1f0np0"], {1: ("4: ACTIVE", "5: LinkUp", "100 Gb/sec (2X EDR)", "Ethernet", [])})
    ib(r, "mlx5_1", HCA.replace("1a:00.0", "1a:00.1"), ["ens1f1np1"],
       {1: ("1: DOWN", "2: Polling", "10 Gb/sec (4X SDR)", "Ethernet",
            [("fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d", "IB/RoCE v1", "ens1f1np1"),
             ("0000:0000:0000:0000:0000:ffff:0a02:0007", "RoCE v2", "ens1f1np1")])})
    base(r, "roce-node-3", driver=OPEN, peermem=True, kernel="6.8.0-45-generic",
         gpus=[("0000:1b:00.0", "NVIDIA H100 80GB HBM3", GPU_SAME_SWITCH)],
         versions="nccl=2.23.4\nverbs=/usr/lib/x86_64-linux-gnu/libibverbs.so.1", lspci=NO_ACS)

    # 7. a workstation fresh from the OS installer: two GeForce cards and a ConnectX card, but neither NCCL nor
    #    libibverbs installed yet
    r = os.path.join(out, "workstation-no-userspace")
    iface(r, "lo", 1, loopback=True)
    iface(r, "enp5s0", 2, speed=1000, driver="igc", device="/sys/devices/pci0000:00/0000:00:1c.0/0000:05:00.0")
    iface(r, "enp65s0np0", 3, speed=100000, driver="mlx5_core", device=HCA)
    addrs(r, [("lo", ["127.0.0.1/8"]), ("enp5s0", ["192.168.1.20/24"]), ("enp65s0np0", ["10.3.0.20/24"])])
    ib(r, "mlx5_0", HCA, ["enp65s0np0"], {1: ("4: ACTIVE", "5: LinkUp", "100 Gb/sec (2X EDR)", "Ethernet",
                                              [("0000:0000:0000:0000:0000:ffff:0a03:0014", "RoCE v2", "enp65s0np0")])})
    base(r, "ws-lab-2", driver=OPEN, kernel="6.8.0-45-generic", gpus=[
        ("0000:01:00.0", "NVIDIA GeForce RTX 4090", "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"),
        ("0000:02:00.0", "NVIDIA GeForce RTX 4090", "/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0")],
        versions="verbs=", lspci=NO_ACS)

    # 8. a capture whose collectors all failed (scripts/capture-host.sh without permissions): only sysfs came back
    iface(os.path.join(out, "collectors-failed"), "lo", 1, loopback=True)


if __name__ == "__main__":
    main()
