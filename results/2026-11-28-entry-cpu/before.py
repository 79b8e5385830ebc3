# Makes the entry-point benchmarks build against the code before issue 25
# (no CompressBatchInto, CompressPage, DecompressPage or Compressor.hasGPU):
# their paths that need those are left out.
import sys
s = open(sys.argv[1]).read()
s = s.replace('[]string{"simd", "simd-into"}', '[]string{"simd"}')
s = s.replace('''				res := BatchResult{arena: new(arena)}''', '''				var res BatchResult''')
s = s.replace('''					} else {
						// CompressBatchInto on the CPU, also where it
						// would pick the GPU.
						err = c.compressInto(&res, pages, true, BackendSIMD)
					}''', '''					}''')
s = s.replace('''	for _, path := range []string{"simd", "batch"} {''', '''	for _, path := range []string{"batch"} {''')
s = s.replace('''					if path == "simd" {
						CompressPage(dst, p)
					} else if _, err''', '''					_, _ = dst, p
					if _, err''')
s = s.replace('''					if path == "simd" {
						err = DecompressPage(res.Pages[k], &dst[0])
					} else {
						err = c.DecompressBatch(res.Pages[k:k+1], dst)
					}''', '''					err = c.DecompressBatch(res.Pages[k:k+1], dst)''')
open(sys.argv[2], 'w').write(s)
