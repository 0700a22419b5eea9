package storetest

import (
	"testing"

	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// NewDynalite returns a Dynamo store on a fresh table of the test's dynalite
// (see testenv.Dynalite: skipped without node and dynalite, failed under
// CI=true).
func NewDynalite(t testing.TB) *dynamo.Store {
	t.Helper()
	endpoint := testenv.Dynalite(t)
	d, err := dynamo.NewFromConfig(t.Context(), testenv.TableName(t), endpoint)
	if err != nil {
		t.Fatalf("NewDynamoFromConfig: %v", err)
	}
	if err := d.CreateTable(t.Context()); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return d
}
