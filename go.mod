module github.com/lz4warp/lz4warp

go 1.26

require github.com/pierrec/lz4/v4 v4.1.33
