package lambdatest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/awslabs/goformation/v7/cloudformation/serverless"

	"tessera/functions/store/dynamo"
)

// wantActions is each function's complete DynamoDB permission: the item
// calls store.Dynamo makes for that function's routes. Load is GetItem;
// Create and Save are a conditional PutItem, followed by a GetItem when the
// condition fails (to tell a retry of our own write from a conflict).
// Join and Move also read the devices of the seats a change notifies
// (LoadMany: BatchGetItem); Player reads a key's games (BatchGetItem) and
// writes its record.
var wantActions = map[string][]string{
	"CreateFunction": {"dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:PutItem"},
	"JoinFunction":   {"dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:PutItem"},
	// The room's reads query the lists index (on the index's ARN only).
	"StateFunction": {"dynamodb:GetItem", "dynamodb:Query"},
	"MoveFunction":  {"dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:PutItem"},
	// The player's function also reads the moderation queue (the lists
	// index) and deletes a forgotten person's items (docs/forgetting.md).
	// Both send mail through SES (docs/email.md; on the account's SES
	// resources in the region only: sesGrant).
	"PlayerFunction": {"dynamodb:BatchGetItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "ses:SendEmail", "ses:SendRawEmail"},
	// The clock also queries the sparse index of due games (on the
	// index's ARN only).
	"ClockFunction": {"dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "ses:SendEmail", "ses:SendRawEmail"},
	// The page's custom resource reads and writes the site's origin item;
	// its other rights are on the bucket and the distribution alone
	// (publishGrants).
	"PublishFunction": {"cloudfront:CreateInvalidation", "dynamodb:GetItem", "dynamodb:PutItem", "s3:DeleteObject", "s3:ListBucket", "s3:PutObject"},
}

// sesGrant is the SES resources a function that mails may send on (the
// account's, in the stack's region, as the test's Fn::Sub renders them).
const sesGrant = "arn:Ref:AWS::Partition:ses:us-east-1:123456789012:*"

// publishGrants is every resource PublishFunction may act on beside the
// table, with the actions allowed there: the bucket's objects, the bucket
// (to list it), this distribution (as the test's Fn::Sub renders them).
var publishGrants = map[string][]string{
	"GetAtt:FrontendBucket.Arn/*": {"s3:DeleteObject", "s3:PutObject"},
	"GetAtt:FrontendBucket.Arn":   {"s3:ListBucket"},
	"arn:Ref:AWS::Partition:cloudfront::123456789012:distribution/Ref:Distribution": {"cloudfront:CreateInvalidation"},
}

// dueIndexARN and listsIndexARN are what the test's Fn::Sub makes of the
// indexes' ARNs: the clock queries the first, the room's reads the second.
const (
	dueIndexARN   = tableARN + "/index/" + dynamo.DueIndex
	listsIndexARN = tableARN + "/index/" + dynamo.ListIndex
)

// grantedActions returns a function's inline-policy actions, failing the
// test on anything but Allow statements on the games table.
func grantedActions(t *testing.T, name string, fn *serverless.Function) []string {
	t.Helper()
	if fn.Role != nil {
		t.Errorf("%s: Role is set; want only the inline policy SAM attaches", name)
	}
	if fn.Policies == nil || fn.Policies.IAMPolicyDocumentArray == nil {
		t.Fatalf("%s: Policies must be a list of inline policy documents (no managed policies, no SAM policy templates)", name)
	}
	if fn.Policies.String != nil {
		t.Errorf("%s: managed policy %s; want inline statements only", name, *fn.Policies.String)
	}
	if fn.Policies.StringArray != nil {
		for _, p := range *fn.Policies.StringArray {
			if p != "" {
				t.Errorf("%s: managed policy %s; want inline statements only", name, p)
			}
		}
	}
	var actions []string
	for i, doc := range *fn.Policies.IAMPolicyDocumentArray {
		// A SAM policy template ({DynamoDBCrudPolicy: ...}) parses as a
		// document without statements.
		if len(doc.Statement) == 0 {
			t.Errorf("%s: policy %d is not an inline document with statements (a SAM policy template grants more than the item actions)", name, i)
		}
		for _, raw := range doc.Statement {
			b, _ := json.Marshal(raw)
			var st struct {
				Effect   string
				Action   interface{}
				Resource interface{}
			}
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatalf("%s: statement %s: %v", name, b, err)
			}
			var keys map[string]interface{}
			_ = json.Unmarshal(b, &keys)
			for k := range keys {
				if k != "Effect" && k != "Action" && k != "Resource" {
					t.Errorf("%s: statement has %s; want only Effect, Action, Resource", name, k)
				}
			}
			if st.Effect != "Allow" {
				t.Errorf("%s: Effect = %s, want Allow", name, st.Effect)
			}
			got := asStrings(st.Resource)
			onIndex := (slices.Equal(got, []string{dueIndexARN}) && name == "ClockFunction" ||
				slices.Equal(got, []string{listsIndexARN}) && (name == "StateFunction" || name == "PlayerFunction")) &&
				slices.Equal(asStrings(st.Action), []string{"dynamodb:Query"})
			mails := slices.Equal(got, []string{sesGrant}) && (name == "ClockFunction" || name == "PlayerFunction")
			if mails {
				if acts := asStrings(st.Action); !slices.Equal(acts, []string{"ses:SendEmail", "ses:SendRawEmail"}) {
					t.Errorf("%s: on SES actions %v, want ses:SendEmail and ses:SendRawEmail", name, acts)
				}
			} else if len(got) == 1 && name == "PublishFunction" && publishGrants[got[0]] != nil {
				acts := asStrings(st.Action)
				sort.Strings(acts)
				if !slices.Equal(acts, publishGrants[got[0]]) {
					t.Errorf("%s: on %s actions %v, want %v", name, got[0], acts, publishGrants[got[0]])
				}
			} else if !slices.Equal(got, []string{tableARN}) && !onIndex {
				t.Errorf("%s: Resource = %v, want only the games table's ARN (or its due index, for Query alone)", name, got)
			}
			actions = append(actions, asStrings(st.Action)...)
		}
	}
	sort.Strings(actions)
	return actions
}

func asStrings(v interface{}) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []interface{}:
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = fmt.Sprint(x)
		}
		return out
	}
	return []string{fmt.Sprintf("%v", v)}
}

func TestEachFunctionMayUseOnlyItsItemActionsOnTheTable(t *testing.T) {
	for name, fn := range loadTemplate(t).GetAllServerlessFunctionResources() {
		t.Run(name, func(t *testing.T) {
			got := grantedActions(t, name, fn)
			if want := wantActions[name]; !slices.Equal(got, want) {
				t.Errorf("actions = %v, want %v", got, want)
			}
		})
	}
}
