{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "ledger.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{ include "sika-lib.envVar" (dict "name" "PAYMENTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payments"))) }}
{{ include "sika-lib.envVar" (dict "name" "PAYOUTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payouts"))) }}
{{- end -}}
