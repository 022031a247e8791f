// The settings of the outbound notifications; src/config.ts reads them from the environment.

export interface NotificationsConfig {
  /** KAFKA_BROKERS, comma-separated host:port; unset or empty: no Kafka publishing. */
  kafkaBrokers: string[] | undefined;
  /** ORDERS_KAFKA_TOPIC, default orders.packing-instructions. */
  kafkaTopic: string;
  /** ORDERS_KAFKA_PARTITIONS: the partitions of the topic when the service creates it. Default 6. */
  kafkaPartitions: number;
  /** ORDERS_KAFKA_REPLICATION_FACTOR: its replicas when the service creates it; undefined: the cluster's brokers, at most 3. */
  kafkaReplicationFactor: number | undefined;
  /** ORDERS_SMTP_URL; unset or empty: e-mails are written to <ORDERS_DATA_DIR>/outbox as .eml files. */
  smtpUrl: string | undefined;
  /** ORDERS_MAIL_FROM; unset: the sender's default. */
  mailFrom: string | undefined;
  /** ORDERS_WEBHOOK_RETRY_DELAYS_MS, comma-separated; unset: 30 s, 2 min, 10 min (4 attempts in all). */
  webhookRetryDelaysMs: number[] | undefined;
  /**
   * ORDERS_EMAIL_YIELD_MS: the longest an e-mail's PDF waits for the main thread to have room before it is
   * drawn (workers/foreground-gate.ts); 0: drawn at once. Default 2000.
   */
  emailYieldMs?: number | undefined;
  /**
   * ORDERS_NOTIFICATIONS_LINGER_MS: after each batch of planned orders, how long the webhook, e-mail and Kafka
   * consumers wait before taking the next (FollowOptions.lingerMs); 0: at once. Default 20.
   */
  lingerMs?: number | undefined;
}
