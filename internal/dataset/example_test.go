package dataset_test

import (
	"fmt"

	"github.com/lz4warp/lz4warp/internal/dataset"
)

func ExampleLoad() {
	pages, err := dataset.Load(dataset.Mixed, 16)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(pages), "pages; page 2 is zero:", pages[2] == dataset.Page{})
	// Output: 16 pages; page 2 is zero: true
}
