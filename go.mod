module github.com/lz4warp/lz4warp

go 1.26.0

require (
	github.com/cucumber/godog v0.15.1
	github.com/ebitengine/purego v0.11.3
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/spf13/pflag v1.0.7
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/cucumber/gherkin/go/v26 v26.2.0 // indirect
	github.com/cucumber/messages/go/v21 v21.0.1 // indirect
	github.com/gofrs/uuid v4.3.1+incompatible // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-memdb v1.3.4 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
