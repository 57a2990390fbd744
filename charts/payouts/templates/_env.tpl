{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "payouts.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{ include "sika-lib.envVar" (dict "name" "LEDGER_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "ledger"))) }}
{{ include "sika-lib.envVar" (dict "name" "PSP_CONNECTOR_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "psp-connector"))) }}
{{- end -}}
