{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "checkout-web.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "CHECKOUT_TOKEN_KEY") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "REDIS_URL") }}
{{ include "sika-lib.envVar" (dict "name" "PAYMENTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payments"))) }}
{{- end -}}
