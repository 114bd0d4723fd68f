package dev.ncclbench.doctor.snapshot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ACS control flags from `lspci -vvv` (live, when lspci is installed) or the capture's saved output. Only ACSCtl
 * counts: ACSCap lists what a bridge could do, ACSCtl what it does.
 */
final class AcsCollector {
    static final String NAME = "acs";
    private static final Pattern DEVICE = Pattern.compile("^((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-9a-f])\\s");
    private static final Pattern ON = Pattern.compile("\\b(ReqRedir|CmpltRedir|UpstreamFwd|SrcValid|EgressCtrl|DirectTrans|TransBlk)\\+");

    private AcsCollector() {
    }

    static List<AcsBridge> collect(HostFiles files) {
        String text;
        if (files.isLive()) {
            text = runLspci(files);
        } else {
            text = files.read(NAME, "/" + HostFiles.EXTRAS + "/lspci-vvv.txt").orElse(null);
            if (text == null) {
                files.problem(NAME, HostFiles.EXTRAS + "/lspci-vvv.txt", "the capture has no lspci -vvv output: ACS redirect was not checked");
            }
        }
        return text == null ? null : parse(text, files);
    }

    static List<AcsBridge> parse(String text, HostFiles files) {
        List<AcsBridge> out = new ArrayList<>();
        String device = null;
        boolean denied = false;
        for (String line : text.split("\n")) {
            Matcher d = DEVICE.matcher(line);
            if (d.find()) {
                device = d.group(1);
                continue;
            }
            if (line.contains("<access denied>")) {
                denied = true;
            }
            String t = line.strip();
            if (t.startsWith("ACSCtl:") && device != null) {
                List<String> on = new ArrayList<>();
                Matcher m = ON.matcher(t);
                while (m.find()) {
                    on.add(m.group(1) + "+");
                }
                if (on.stream().anyMatch(f -> f.startsWith("ReqRedir") || f.startsWith("CmpltRedir"))) {
                    out.add(new AcsBridge(device, String.join(" ", on)));
                }
            }
        }
        if (denied && out.isEmpty()) {
            files.denied(NAME, "lspci -vvv", "capabilities printed as <access denied>: ACS redirect was not checked");
        }
        return out;
    }

    private static String runLspci(HostFiles files) {
        java.nio.file.Path tmp = null;
        try {
            tmp = Files.createTempFile("ncclbench-lspci", ".txt");
            Process p = new ProcessBuilder("lspci", "-vvv").redirectOutput(tmp.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                files.problem(NAME, "lspci -vvv", "did not finish in 20 s: ACS redirect was not checked",
                        "run lspci -vvv by hand to see where it stops");
                return null;
            }
            if (p.exitValue() != 0) {
                files.problem(NAME, "lspci -vvv", "exited " + p.exitValue() + ": ACS redirect was not checked",
                        "run lspci -vvv by hand to see why");
                return null;
            }
            return Files.readString(tmp, StandardCharsets.UTF_8);
        } catch (IOException e) {
            files.problem(NAME, "lspci -vvv", "lspci is not installed: ACS redirect was not checked",
                    "install pciutils (apt-get install pciutils, dnf install pciutils), then run doctor again");
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (tmp != null) {
                tmp.toFile().delete();
            }
        }
    }
}
