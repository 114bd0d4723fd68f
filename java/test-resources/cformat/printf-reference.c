/* Prints reference outputs of C printf for the Java CFormat tests (run: gcc gen.c -o gen && ./gen). */
#include <stdio.h>
static void fl(double v, int width, char *str) {
  if (snprintf(str, width+1, "%*.2f", width, v) <= width) return;
  if (snprintf(str, width+1, "%*.1f", width, v) <= width) return;
  if (snprintf(str, width+1, "%*.0f", width, v) <= width) return;
  snprintf(str, width+1, width >= 7 ? "%*.1e" : "%*.0e", width, v);
}
int main(void) {
  double vals[] = {0.0, -0.0, 1.0, 1.5, 0.125, 0.375, 2.675, 0.005, 0.015, 0.025, 0.045, 9.995, 99.995, 999.995,
    12.3456, 123456789.0, 0.0001, 0.00001, 0.000123456, 100000.0, 999999.0, 999999.5, 1000000.0, 1234567.0,
    1e15, 1e16, 1.5e100, 3.14159265358979, 2.5, 3.5, 0.5, 1e-300, 4.94e-324, 1.7976931348623157e308,
    7.0, 42.0, 65536.0, 9999.995, 99999.95, 999999.5, 9999999.5, 123.456, 1234.5678, 12345.678, 123456.78,
    1234567.8, 12345678.9, 0.01, 0.004999, 0.1, 0.2, 0.3, 1e-5, 5e-5, 1.23e-7, 0.999995, 0.9999995,
    -1.5, -12.345, -123456.0, -0.001, 18.66, 1.76, 3.07, 242.0, 300.51, 13.42, 23.48, 1e7, 1e8, 123456.5,
    371.889, 0.00251, 5.45, 45.00, 99.999, 9.9999, 999.9949, 1e5, 33.333333333, 2e9, 8.123e11, 6.02e23};
  int n = sizeof(vals)/sizeof(vals[0]);
  printf("# value(C %%a)\t%%g\tfit7\tfit6\t%%.2f\t%%.1e\n");
  char a[32], b[32];
  for (int i = 0; i < n; i++) {
    fl(vals[i], 7, a); fl(vals[i], 6, b);
    printf("%a\t%g\t[%s]\t[%s]\t%.2f\t%.1e\n", vals[i], vals[i], a, b, vals[i], vals[i]);
  }
  return 0;
}
