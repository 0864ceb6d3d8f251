package egress_test

import (
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestCredentialField(t *testing.T) {
	cases := map[string]struct {
		f       egress.FieldInfo
		refused bool
	}{
		"type password":        {egress.FieldInfo{Type: "password"}, true},
		"type PASSWORD":        {egress.FieldInfo{Type: " PASSWORD "}, true},
		"current-password":     {egress.FieldInfo{Type: "text", Autocomplete: "current-password"}, true},
		"section new-password": {egress.FieldInfo{Autocomplete: "section-signup new-password"}, true},
		"cc-number":            {egress.FieldInfo{Autocomplete: "billing cc-number"}, true},
		"cc-exp":               {egress.FieldInfo{Autocomplete: "cc-exp"}, true},
		"cc-exp-month":         {egress.FieldInfo{Autocomplete: "CC-EXP-MONTH"}, true},
		"cc-csc":               {egress.FieldInfo{Autocomplete: "cc-csc"}, true},
		"one-time-code":        {egress.FieldInfo{Autocomplete: "one-time-code"}, true},
		"name password":        {egress.FieldInfo{Name: "user[password]"}, true},
		"name newPassword":     {egress.FieldInfo{Name: "newPassword"}, true},
		"id passwd":            {egress.FieldInfo{ID: "login-passwd"}, true},
		"wordpress pwd":        {egress.FieldInfo{Name: "pwd"}, true},
		"client_secret":        {egress.FieldInfo{Name: "client_secret"}, true},
		"api-key":              {egress.FieldInfo{Name: "api-key"}, true},
		"apiKey":               {egress.FieldInfo{ID: "apiKey"}, true},
		"api_key":              {egress.FieldInfo{Name: "api_key"}, true},
		"access token":         {egress.FieldInfo{Name: "accessToken"}, true},
		"token":                {egress.FieldInfo{Name: "token"}, true},
		"cvv":                  {egress.FieldInfo{Name: "cvv"}, true},
		"cvc":                  {egress.FieldInfo{ID: "card-cvc"}, true},
		"card number":          {egress.FieldInfo{Name: "cardNumber"}, true},
		"card_number":          {egress.FieldInfo{Name: "card_number"}, true},
		"creditcard":           {egress.FieldInfo{ID: "creditcard"}, true},
		"ssn":                  {egress.FieldInfo{Name: "ssn"}, true},
		"SSN last four":        {egress.FieldInfo{Name: "SSN-last4"}, true},
		"numeric code":         {egress.FieldInfo{Name: "code", InputMode: "numeric"}, true},
		"verification code":    {egress.FieldInfo{ID: "verificationCode", InputMode: "numeric"}, true},
		"search":               {egress.FieldInfo{Type: "search", Name: "q"}, false},
		"email":                {egress.FieldInfo{Type: "email", Autocomplete: "username", Name: "email"}, false},
		"cc-name":              {egress.FieldInfo{Autocomplete: "cc-name", Name: "cardholder"}, false},
		"class name":           {egress.FieldInfo{Name: "className"}, false},
		"passenger":            {egress.FieldInfo{Name: "passenger_name"}, false},
		"pincode postal":       {egress.FieldInfo{Name: "pincode"}, false},
		"shipping":             {egress.FieldInfo{ID: "shipping-address"}, false},
		"zip code numeric":     {egress.FieldInfo{Name: "zipCode", InputMode: "numeric"}, false},
		"code not numeric":     {egress.FieldInfo{Name: "code"}, false},
		"promo code numeric":   {egress.FieldInfo{Name: "promo_code", InputMode: "numeric"}, false},
		"comment":              {egress.FieldInfo{Type: "textarea", Name: "comment"}, false},
		"empty":                {egress.FieldInfo{}, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			reason, refused := egress.CredentialField(c.f)
			if refused != c.refused {
				t.Errorf("CredentialField(%+v) = %q, %v; want refused=%v", c.f, reason, refused, c.refused)
			}
			if refused && reason == "" {
				t.Error("refused without a reason")
			}
		})
	}
}

func TestCheckTyping(t *testing.T) {
	if err := egress.CheckTyping(egress.FieldInfo{Type: "search"}, "best pizza near me"); err != nil {
		t.Errorf("plain search refused: %v", err)
	}
	err := egress.CheckTyping(egress.FieldInfo{Type: "password"}, "hunter2")
	if egress.CodeOf(err) != egress.CodeCredentialField {
		t.Errorf("password field: %v", err)
	}
	err = egress.CheckTyping(egress.FieldInfo{Type: "text"}, "my key is ghp_"+"aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5")
	if egress.CodeOf(err) != egress.CodeSecretValue {
		t.Errorf("token value: %v", err)
	}
}

// TestTypingOneTimeCodes holds the decision of issue 33: a one-time code
// field takes the code the owner was mailed; a field that is also (or only)
// a password, card number, expiry or security code stays refused.
func TestTypingOneTimeCodes(t *testing.T) {
	cases := map[string]struct {
		f    egress.FieldInfo
		code egress.Code // "" when the code is typed
	}{
		"autocomplete one-time-code": {egress.FieldInfo{Autocomplete: "one-time-code"}, ""},
		"name otp":                   {egress.FieldInfo{Name: "otp"}, ""},
		"id totp":                    {egress.FieldInfo{ID: "totp-input"}, ""},
		"numeric code":               {egress.FieldInfo{Name: "code", InputMode: "numeric"}, ""},
		"verification code":          {egress.FieldInfo{ID: "verificationCode", InputMode: "numeric"}, ""},
		"oneTimeCode":                {egress.FieldInfo{Name: "oneTimeCode"}, ""},
		"password typed as code":     {egress.FieldInfo{Type: "password", Autocomplete: "one-time-code"}, egress.CodeCredentialField},
		"otp password":               {egress.FieldInfo{Name: "otp_password"}, egress.CodeCredentialField},
		"code then card number":      {egress.FieldInfo{Autocomplete: "one-time-code cc-number"}, egress.CodeCredentialField},
		"otp named cvc":              {egress.FieldInfo{Autocomplete: "one-time-code", Name: "cvc"}, egress.CodeCredentialField},
		"card number":                {egress.FieldInfo{Autocomplete: "cc-number"}, egress.CodeCredentialField},
		"expiry":                     {egress.FieldInfo{Autocomplete: "cc-exp"}, egress.CodeCredentialField},
		"security code":              {egress.FieldInfo{Name: "securityCode", InputMode: "numeric"}, egress.CodeCredentialField},
		"mfa secret":                 {egress.FieldInfo{Name: "mfa", ID: "secret"}, egress.CodeCredentialField},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := egress.CheckTyping(c.f, "492817")
			if got := egress.CodeOf(err); got != c.code {
				t.Fatalf("CheckTyping(%+v) = %v; want code %q", c.f, err, c.code)
			}
			if _, masked := egress.CredentialField(c.f); !masked {
				t.Errorf("%+v is not a credential field: reads would show its value", c.f)
			}
			if got := egress.OneTimeCode(c.f); got != (c.code == "") {
				t.Errorf("OneTimeCode(%+v) = %v", c.f, got)
			}
		})
	}
}
