/** Every file and document the tool writes goes through here: atomic files, the JSON mapper, JUnit XML, Prometheus text, HTML escaping. */
package dev.ncclbench.output;
