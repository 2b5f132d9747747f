/* gen.c - writes the benchmark input: synthetic Kumo Outfitters support
 * runs, one per line.
 *
 *   gen [-s SEED] [-m chat|mastra|huge] [SIZE_MB] [OUT]
 *                                      (SIZE_MB default 200, OUT default stdout)
 *
 * The output is a function of SEED, the mode and SIZE_MB only (1 MB = 10^6
 * bytes; the file stops at the first record boundary at or past the size).
 *
 * chat (the default): the OpenAI Chat Completions shape of
 * examples/runs/openai-chat.jsonl. Each run is {"id","task_id","model",
 * "messages":[system, user, assistant tool_calls, tool results, ..., final
 * assistant text],"tools":[...]} with 2-12 tool calls, texts in English,
 * Japanese and Chinese, parallel calls, retries after malformed arguments,
 * "Error:" results, follow-up questions, and now and then a huge (~100 KB)
 * tool result.
 *
 * mastra: small Mastra scorer runs in the 1.x shape of
 * examples/runs/mastra.jsonl ({"id","task_id","inputMessages":[user],
 * "output":[assistant]}, MastraDBMessage content with parts and
 * toolInvocations), 0-4 calls, a few hundred bytes to a few KB each.
 *
 * huge: one OpenAI Chat run whose final answer is a single message of
 * about SIZE_MB (paragraphs in three scripts, emoji, tabs, escapes), for
 * the review screen's memory.
 *
 * session: one OpenAI Chat run of about SIZE_MB, a long session of tens
 * of thousands of calls and results (now and then a huge result), for the
 * cost of one very large record.
 *
 * task_ids are those of examples/tasks.jsonl, so examples/scorers.yaml
 * applies to every run.
 *
 * Needs only libc. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output buffer ---------------------------------------------------- */

struct buf {
	char *p;
	size_t len, cap;
};

static void grow(struct buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		fputs("gen: out of memory\n", stderr);
		exit(2);
	}
	b->p = p;
	b->cap = cap;
}

static void put(struct buf *b, const char *s, size_t n)
{
	grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void putf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* A JSON string literal; UTF-8 passes through, controls are escaped. */
static void put_jstr(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	grow(b, n + 2);
	b->p[b->len++] = '"';
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(b, s + start, i - start);
		start = i + 1;
		switch (c) {
		case '"':  puts_(b, "\\\""); break;
		case '\\': puts_(b, "\\\\"); break;
		case '\n': puts_(b, "\\n"); break;
		case '\t': puts_(b, "\\t"); break;
		case '\r': puts_(b, "\\r"); break;
		default: {
			char u[7] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0 };
			puts_(b, u);
		}
		}
	}
	put(b, s + start, n - start);
	puts_(b, "\"");
}

static void put_js(struct buf *b, const char *s)
{
	put_jstr(b, s, strlen(s));
}

/* "key": "value" with a leading comma unless first. */
static void kv(struct buf *b, bool first, const char *key, const char *val)
{
	if (!first)
		puts_(b, ",");
	put_js(b, key);
	puts_(b, ":");
	put_js(b, val);
}

/* ---- deterministic randomness ---------------------------------------- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return (unsigned)((rnd() >> 11) % n);
}

static unsigned between(unsigned lo, unsigned hi)   /* inclusive */
{
	return lo + below(hi - lo + 1);
}

static bool chance(double p)
{
	return (double)(rnd() >> 11) / 9007199254740992.0 < p;
}

#define NELEM(a) (sizeof(a) / sizeof(*(a)))
#define PICK(a) ((a)[below(NELEM(a))])

static void rand_alnum(char *out, size_t n)
{
	static const char cs[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	for (size_t i = 0; i < n; i++)
		out[i] = cs[below(sizeof cs - 1)];
	out[n] = '\0';
}

/* ---- the world -------------------------------------------------------- */

enum lang { EN, JA, ZH };
static const char *const lang_code[] = { "en", "ja", "zh" };

enum tool {
	T_GET_ORDER, T_TRACK, T_REFUND, T_CANCEL, T_ADDRESS, T_INVENTORY, T_FAQ, T_ESCALATE,
};
static const char *const tool_name[] = {
	"get_order", "track_parcel", "refund_order", "cancel_order", "update_address",
	"check_inventory", "search_faq", "escalate_to_human",
};

/* The tasks of examples/tasks.jsonl and their expected tools, in order. */
struct task {
	const char *id;
	int expected[3];
	int nexp;
	const char *order_status;
};
static const struct task tasks[] = {
	{ "where-is-my-order", { T_GET_ORDER, T_TRACK }, 2, "shipped" },
	{ "refund-damaged-item", { T_GET_ORDER, T_REFUND }, 2, "delivered" },
	{ "change-address", { T_GET_ORDER, T_ADDRESS }, 2, "processing" },
	{ "cancel-before-ship", { T_GET_ORDER, T_CANCEL }, 2, "processing" },
	{ "stock-question", { T_INVENTORY }, 1, NULL },
	{ "faq-returns-policy", { T_FAQ }, 1, NULL },
	{ "angry-escalation", { T_GET_ORDER, T_ESCALATE }, 2, "shipped" },
	{ "exchange-size", { T_GET_ORDER, T_INVENTORY }, 2, "delivered" },
	{ "lost-parcel-refund", { T_GET_ORDER, T_TRACK, T_REFUND }, 3, "delivered" },
};

struct product {
	const char *sku, *name[3];
	double usd;
};
static const struct product products[] = {
	{ "RS2", { "Ridge 2L Rain Shell", "リッジ 2L レインシェル", "山脊 2L 防雨冲锋衣" }, 189 },
	{ "SMB", { "Shiretoko Merino Base Layer", "知床 メリノ ベースレイヤー", "知床 美利奴打底衣" }, 85 },
	{ "RSH", { "Rishiri 40L Backpack", "利尻 40L バックパック", "利尻 40L 登山背包" }, 229 },
	{ "ALD", { "Akan Light Down Jacket", "阿寒 ライトダウンジャケット", "阿寒 轻量羽绒服" }, 260 },
	{ "TKS", { "Tokachi Trekking Shoes", "十勝 トレッキングシューズ", "十胜 徒步鞋" }, 175 },
	{ "DTT", { "Daisetsu 2P Tent", "大雪 2人用テント", "大雪 双人帐篷" }, 420 },
	{ "OLN", { "Otaru Oil Lantern", "小樽 オイルランタン", "小樽 煤油灯" }, 64 },
	{ "MIG", { "Montréal Insulated Gloves", "モントリオール 中綿グローブ", "蒙特利尔 保暖手套" }, 48 },
	{ "NFV", { "Niseko Fleece Vest", "ニセコ フリースベスト", "二世古 抓绒背心" }, 95 },
	{ "SSB", { "Shikotsu Sleeping Bag -5C", "支笏 寝袋 -5℃", "支笏 睡袋 -5℃" }, 310 },
};

struct color {
	const char *code, *name[3];
};
static const struct color colors[] = {
	{ "BLK", { "Black", "ブラック", "黑色" } },
	{ "NVY", { "Navy", "ネイビー", "藏青色" } },
	{ "SLT", { "Slate", "スレート", "石板灰" } },
	{ "GRN", { "Forest Green", "フォレストグリーン", "森林绿" } },
	{ "RED", { "Red", "レッド", "红色" } },
	{ "SND", { "Sand", "サンド", "沙色" } },
};
static const char *const sizes[] = { "XS", "S", "M", "L", "XL" };

struct customer {
	const char *name, *email, *country, *currency;
	const char *line1, *city, *region, *postal;
};
static const struct customer cust_en[] = {
	{ "Alex Morgan", "alex.morgan@example.com", "US", "USD", "2217 SE Clinton St", "Portland", "OR", "97202" },
	{ "Priya Shah", "priya.shah@example.com", "GB", "GBP", "14 Albert Road", "Bristol", "", "BS3 4AB" },
	{ "Jordan Lee", "jordan.lee@example.com", "CA", "CAD", "880 Rue Sherbrooke O", "Montréal", "QC", "H3A 1G1" },
	{ "Sam Carter", "sam.carter@example.com", "AU", "AUD", "3/21 Smith St", "Fitzroy", "VIC", "3065" },
	{ "Maria Gonzalez", "maria.g@example.com", "US", "USD", "1458 Alder St, Apt 3B", "Eugene", "OR", "97401" },
	{ "Chris Nguyen", "chris.nguyen@example.com", "US", "USD", "77 Pine Ridge Rd", "Boulder", "CO", "80302" },
	{ "Emma Fischer", "emma.fischer@example.com", "DE", "EUR", "Lindenstraße 12", "München", "", "80331" },
};
static const struct customer cust_ja[] = {
	{ "佐藤 美咲", "misaki.sato@example.jp", "JP", "JPY", "北八条西5丁目2-14 メゾン北大302号室", "札幌市北区", "北海道", "060-0808" },
	{ "田中 健太", "kenta.tanaka@example.jp", "JP", "JPY", "神宮前3-1-7", "渋谷区", "東京都", "150-0001" },
	{ "鈴木 花子", "hanako.suzuki@example.jp", "JP", "JPY", "中之島2-3-18", "大阪市北区", "大阪府", "530-0005" },
	{ "高橋 翔", "sho.takahashi@example.jp", "JP", "JPY", "大通西7丁目1", "札幌市中央区", "北海道", "060-0042" },
};
static const struct customer cust_zh[] = {
	{ "王芳", "wang.fang@example.cn", "CN", "CNY", "张杨路 1288 号 12 楼", "上海市浦东新区", "上海", "200122" },
	{ "李伟", "li.wei@example.cn", "CN", "CNY", "中关村大街 27 号", "北京市海淀区", "北京", "100080" },
	{ "陈静", "chen.jing@example.tw", "TW", "TWD", "忠孝東路四段 181 號", "台北市大安區", "台北", "106" },
};

struct carrier {
	const char *code, *service;
};
static const struct carrier carriers[] = {
	{ "dhl", "DHL Express Worldwide" }, { "ups", "UPS Worldwide Saver" },
	{ "fedex", "FedEx International Priority" }, { "yamato", "Yamato TA-Q-BIN" },
	{ "japan_post", "Japan Post EMS" }, { "sf_express", "SF International Express" },
};

static const char *const places[3][8] = {
	{ "Tokyo Gateway, JP", "Narita Airport, JP", "Anchorage, AK, US", "Cincinnati Hub, OH, US",
	  "Leipzig Hub, DE", "Louisville Worldport, KY, US", "Sydney Gateway, AU", "Local delivery facility" },
	{ "札幌主管支店", "羽田クロノゲート", "千歳ベース", "東京国際郵便局", "大阪ベース", "川崎東郵便局",
	  "新千歳空港", "配達営業所" },
	{ "上海浦东国际机场", "深圳华南转运中心", "北京顺义集散中心", "广州白云机场", "杭州转运中心",
	  "台北转运中心", "成田机场", "派送网点" },
};
static const char *const track_desc[3][7] = {
	{ "Shipment picked up", "Processed at origin facility", "Departed facility", "Arrived at sort facility",
	  "Customs clearance in progress", "Out for delivery", "Delivery attempted - recipient not at home" },
	{ "荷物受付", "発送元営業所を出発", "中継センターに到着", "中継センターを出発", "通関手続き中",
	  "配達中", "ご不在のため持ち帰り" },
	{ "已揽收", "已离开始发地", "到达转运中心", "离开转运中心", "海关清关中", "派送中",
	  "派送失败，收件人不在" },
};

static const char *const system_prompt =
	"You are Kumo, the customer-support assistant of Kumo Outfitters, an online shop for outdoor "
	"clothing and camping gear based in Sapporo, Japan, that ships worldwide. Policies: always look "
	"an order up with get_order before changing, cancelling or refunding it. Orders can be cancelled "
	"or re-addressed only while their status is \"processing\". Damaged or lost items are refunded "
	"in full with refund_order; sale items (30% off or more) can be exchanged but not refunded. Use "
	"search_faq for policy questions and check_inventory for stock questions instead of answering "
	"from memory. Hand the conversation to a human with escalate_to_human when the customer asks "
	"for one or is very upset. Always answer in the customer's language, briefly and politely.";

/* The tool definitions of examples/runs/openai-chat.jsonl, compact. */
static const char *const tools_json =
	"[{\"type\":\"function\",\"function\":{\"name\":\"get_order\",\"description\":\"Look up an order by its number: status, items, totals, shipping address and carrier.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\",\"description\":\"Order number, e.g. KO-204817\"}},\"required\":[\"order_id\"]}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"track_parcel\",\"description\":\"Get the latest carrier tracking events for a parcel.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"tracking_number\":{\"type\":\"string\"},\"carrier\":{\"type\":\"string\",\"enum\":[\"yamato\",\"japan_post\",\"dhl\",\"ups\",\"fedex\",\"sf_express\"]}},\"required\":[\"tracking_number\"]}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"refund_order\",\"description\":\"Refund all or some items of an order, to the original payment method or as store credit.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\"},\"items\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"sku\":{\"type\":\"string\"},\"qty\":{\"type\":\"integer\"}}}},\"reason\":{\"type\":\"string\",\"enum\":[\"damaged_item\",\"lost_parcel\",\"wrong_item\",\"customer_request\"]},\"method\":{\"type\":\"string\",\"enum\":[\"original_payment\",\"store_credit\"]}},\"required\":[\"order_id\",\"reason\"]}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"cancel_order\",\"description\":\"Cancel an order that has not shipped yet (status processing). Refunds the payment automatically.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\"},\"reason\":{\"type\":\"string\"}},\"required\":[\"order_id\"]}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"update_address\",\"description\":\"Change the shipping address of an order that has not shipped yet.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\"},\"address\":{\"type\":\"object\",\"properties\":{\"postal_code\":{\"type\":\"string\"},\"prefecture\":{\"type\":\"string\"},\"state\":{\"type\":\"string\"},\"city\":{\"type\":\"string\"},\"line1\":{\"type\":\"string\"},\"line2\":{\"type\":\"string\"},\"country\":{\"type\":\"string\"}}}},\"required\":[\"order_id\",\"address\"]}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"search_faq\",\"description\":\"Search the Kumo Outfitters help-centre articles.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"},\"language\":{\"type\":\"string\",\"enum\":[\"en\",\"ja\",\"zh\"]}},\"required\":[\"query\"]}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"check_inventory\",\"description\":\"Check stock for a product variant, by SKU or by product name, size and colour.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"sku\":{\"type\":\"string\"},\"product\":{\"type\":\"string\"},\"size\":{\"type\":\"string\"},\"color\":{\"type\":\"string\"}}}}},"
	"{\"type\":\"function\",\"function\":{\"name\":\"escalate_to_human\",\"description\":\"Hand the conversation to a human support agent and open a ticket.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"reason\":{\"type\":\"string\"},\"priority\":{\"type\":\"string\",\"enum\":[\"low\",\"normal\",\"high\"]},\"summary\":{\"type\":\"string\"},\"language\":{\"type\":\"string\"}},\"required\":[\"reason\",\"summary\"]}}}]";

static const char *const models[] = {
	"gpt-4o", "gpt-4o", "gpt-4o", "gpt-4o-mini-2024-07-18", "gpt-4.1", "gpt-4.1-mini",
};

/* ---- texts ------------------------------------------------------------ */

/* First customer messages, per task and language. {order} {product}
 * {size} {color} {city} {tracking} are filled in. */
static const char *const first_msg[9][3][3] = {
	{ { "Hi, I ordered a {product} last week and it still hasn't arrived. Order {order}, can you check where it is?",
	    "My tracking number {tracking} hasn't updated in 4 days. It's for order {order}. What's going on?",
	    "Hey! Could you tell me where my order {order} is? I need the {product} for a trip this weekend." },
	  { "{order} の注文はいつ届きますか？", "先週注文した{product}がまだ届きません。注文番号は {order} です。配送状況を確認してもらえますか？", NULL },
	  { "你好，我的订单 {order} 什么时候能到{city}？已经下单一周了。", NULL, NULL } },
	{ { "The zipper on my new {product} broke the first time I wore it. Order {order}. I'd like a refund please.",
	    "My {product} arrived with a tear in the side panel. Order {order}. Can I get my money back?", NULL },
	  { "昨日届いた{product}が壊れていました。注文番号 {order} です。返金をお願いできますか。", NULL, NULL },
	  { "收到的{product}是坏的，订单号 {order}，可以退款吗？", NULL, NULL } },
	{ { "I just moved! Can you send order {order} to my new address in {city} instead?",
	    "Please change the delivery address for {order}, I won't be home for the next month.", NULL },
	  { "先週注文した{product}の配送先を変更したいです。注文番号は {order} です。", NULL, NULL },
	  { "我想修改订单 {order} 的收货地址，可以吗？", NULL, NULL } },
	{ { "Please cancel order {order}, I ordered the wrong size by mistake.",
	    "Can you cancel {order}? I found the {product} cheaper locally, sorry.", NULL },
	  { "注文 {order} をキャンセルしたいです。まだ発送されていませんよね？", NULL, NULL },
	  { "我想取消订单 {order}，应该还没有发货吧？", NULL, NULL } },
	{ { "Do you have the {product} in size {size}? Either {color} or black works.",
	    "Is the {product} available in {color}? I can't tell from the website.", NULL },
	  { "{product}の{size}サイズ、{color}は在庫ありますか？", NULL, NULL },
	  { "{product}有{size}码的{color}吗？", NULL, NULL } },
	{ { "What's your return policy for items bought on sale?",
	    "How long do I have to return something if I live overseas, and who pays for return shipping?", NULL },
	  { "返品ポリシーについて教えてください。セール品も返品できますか？", NULL, NULL },
	  { "请问你们的退货政策是什么？海外订单可以退货吗？", NULL, NULL } },
	{ { "This is the THIRD time I'm writing. Order {order} arrived with the wrong item AGAIN \xf0\x9f\x98\xa1 I want to talk to a real person, not a bot.",
	    "I've been waiting two weeks for {order} and nobody answers my emails. Get me a manager now.", NULL },
	  { "いい加減にしてください。{order} の注文、2週間経っても届かないし、問い合わせにも返事がありません。責任者と話させてください。", NULL, NULL },
	  { "订单 {order} 两周了还没到，客服也不回复，我要找人工客服！", NULL, NULL } },
	{ { "The {product} I got is too small. Can I swap it for a size {size}? Order {order}.",
	    "Could I exchange my {product} from order {order} for size {size} in {color}?", NULL },
	  { "{product}のサイズが合いませんでした。{size}に交換できますか？注文番号は {order} です。", NULL, NULL },
	  { "我买的{product}太小了，能换成{size}码吗？订单号 {order}。", NULL, NULL } },
	{ { "My parcel for order {order} says delivered but it never arrived. I checked with neighbours. Can you refund me?",
	    "Tracking for {order} has been stuck for three weeks, I think it is lost. I'd like a refund.", NULL },
	  { "注文番号 {order} の荷物が「配達完了」になっているのに届いていません。返金してもらえますか？", NULL, NULL },
	  { "订单 {order} 显示已签收，但我根本没收到，可以退款吗？", NULL, NULL } },
};

/* Sentences that make customers' messages longer. */
static const char *const more_user[3][6] = {
	{ " I'm leaving for a hiking trip in Hokkaido on the 20th, so I really need it before then.",
	  " I've been a customer for years and this has never happened before.",
	  " The order confirmation email said it would take five business days.",
	  " Please let me know as soon as possible, thanks in advance.",
	  " I already tried the help centre but couldn't find an answer there.",
	  " My phone number is on the order if you need to call me." },
	{ "来週から登山に行くので、それまでに必要です。", "以前から何度も利用していますが、こんなことは初めてです。",
	  "注文確認メールには5営業日で届くと書いてありました。", "できるだけ早くご連絡ください。",
	  "ヘルプセンターも見ましたが、答えが見つかりませんでした。", "よろしくお願いいたします。" },
	{ "下周要去爬山，希望在那之前收到。", "我是老顾客了，第一次遇到这种情况。", "确认邮件上说五个工作日内送达。",
	  "请尽快回复，谢谢。", "帮助中心里没有找到答案。", "麻烦你们了。" },
};

static const char *const confirm_q[3][3] = {
	{ "I can do that for you. Just to confirm: should I go ahead with order {order}?",
	  "Before I continue, would you like the refund to your original payment method or as store credit?",
	  "Could you confirm the size and colour you would like?" },
	{ "承知しました。注文 {order} の手続きを進めてもよろしいですか？", "返金は元のお支払い方法とストアクレジットのどちらがよろしいですか？",
	  "ご希望のサイズとカラーを教えていただけますか？" },
	{ "好的。请确认是否继续处理订单 {order}？", "退款退回原支付方式还是店铺余额？", "请确认您想要的尺码和颜色。" },
};
static const char *const confirm_a[3][4] = {
	{ "Yes please, go ahead.", "Back to my card please. I can send a photo later.",
	  "{size} in {color}, thanks.", "Yes. And will I need to sign for it?" },
	{ "はい、お願いします。", "元のカードに返金でお願いします。", "{size}の{color}でお願いします。", "はい、全部確認しました。" },
	{ "是的，请继续。", "退回原支付方式。", "{size}码，{color}。", "是的，全部处理。" },
};

static const char *const before_call[3][4] = {
	{ "Let me look that up for you.", "One moment while I check.", "Sure, checking now.",
	  "Thanks, I'll check the details first." },
	{ "確認いたしますので、少々お待ちください。", "お調べします。", "承知しました。確認します。", "ありがとうございます。確認いたします。" },
	{ "好的，我帮您查一下。", "请稍等，我查询一下。", "收到，马上确认。", "谢谢，我先核实一下。" },
};

/* Final answers: a core per task, then closing sentences. */
static const char *const final_core[9][3] = {
	{ "Your order {order} ({product}, {color}, size {size}) shipped with {carrier} under tracking number {tracking}. "
	  "The parcel is in transit and is currently at {place}; the carrier expects to deliver it to {city} within 2-3 business days.",
	  "ご注文 {order}（{product}、{color}、{size}サイズ）は {carrier} で発送済みです。追跡番号は {tracking} で、現在「{place}」にあります。{city}へは2〜3営業日でお届けの予定です。",
	  "您的订单 {order}（{product}，{color}，{size} 码）已通过 {carrier} 发出，运单号 {tracking}。包裹目前在{place}，预计 2–3 个工作日送达{city}。" },
	{ "I'm sorry your {product} arrived damaged. I've refunded order {order} in full to your original payment method; "
	  "you should see the money within 5-10 business days. There is no need to send the item back.",
	  "{product}が破損していたとのこと、大変申し訳ございません。注文 {order} を元のお支払い方法に全額返金いたしました。5〜10営業日ほどで反映されます。商品の返送は不要です。",
	  "非常抱歉{product}到货时已损坏。订单 {order} 已全额退回原支付方式，5–10 个工作日内到账，无需寄回商品。" },
	{ "Done: order {order} will now be delivered to your new address in {city}. It is still being prepared, and you will get a new confirmation email with the address.",
	  "注文 {order} の配送先を{city}の新しいご住所に変更しました。まだ出荷準備中ですので、変更後の住所で発送されます。",
	  "已将订单 {order} 的收货地址改为{city}的新地址。订单仍在备货中，将按新地址发货。" },
	{ "Order {order} is cancelled and the payment is refunded automatically to your original payment method. Nothing will be shipped.",
	  "注文 {order} をキャンセルしました。お支払いは自動的に返金されます。商品は発送されません。",
	  "订单 {order} 已取消，款项将自动退回原支付方式，商品不会发出。" },
	{ "Good news: the {product} in size {size} is in stock in {color} ({stock} left) at our Ebetsu warehouse. Orders placed before 2 pm Japan time ship the same day.",
	  "{product}の{size}サイズ、{color}は江別倉庫に在庫が{stock}点ございます。日本時間14時までのご注文は当日発送です。",
	  "{product} {size} 码{color}有货（江别仓库还有 {stock} 件）。日本时间下午 2 点前下单当天发货。" },
	{ "Sale items (30% off or more) can be exchanged within 30 days but not refunded. Full-price items can be returned within 30 days for a refund; overseas customers have 45 days, and return shipping is free for damaged or wrong items.",
	  "セール品（30%以上割引）は30日以内であれば交換のみ可能で、返金はできません。定価品は30日以内の返品で返金いたします。海外からのご返品は45日以内です。",
	  "打折商品（七折及以下）可在 30 天内换货，但不能退款。原价商品 30 天内可退货退款，海外订单为 45 天。" },
	{ "I'm really sorry about this. I've looked up order {order} and opened a high-priority ticket for our support team; a human colleague will contact you by email within the next few hours.",
	  "ご不便をおかけして誠に申し訳ございません。注文 {order} を確認し、担当者へ優先度「高」で引き継ぎました。数時間以内にメールでご連絡いたします。",
	  "非常抱歉给您带来不便。我已查询订单 {order} 并为您创建了高优先级工单，人工客服将在几小时内通过邮件联系您。" },
	{ "Yes, you can exchange the {product} from order {order}. Size {size} is in stock in {color}; I've reserved one for you. Please send the original back with the prepaid label we'll email you.",
	  "注文 {order} の{product}は交換可能です。{size}サイズの{color}は在庫がありますので、お取り置きしました。返送用の着払い伝票をメールでお送りします。",
	  "订单 {order} 的{product}可以换货。{size} 码{color}有货，已为您预留。我们会通过邮件发送预付退货标签。" },
	{ "I'm sorry your parcel never arrived. The carrier's tracking for {tracking} shows no delivery scan at your door, so I've refunded order {order} in full to your original payment method.",
	  "お荷物が届いていないとのこと、申し訳ございません。追跡番号 {tracking} を確認したところ配達記録に不備がありましたので、注文 {order} を全額返金いたしました。",
	  "很抱歉您没有收到包裹。运单 {tracking} 没有有效的签收记录，订单 {order} 已全额退款。" },
};

static const char *const closing[3][10] = {
	{ " If anything else comes up, just reply to this message.", " Thanks for shopping with Kumo Outfitters!",
	  " You can also follow the parcel at kumo-outfitters.example/track.",
	  "\n\nSummary:\n- order: {order}\n- item: {product}\n- status: updated",
	  " Our help centre has more details at kumo-outfitters.example/help.",
	  " I've also sent a confirmation to the email address on the order.",
	  " Have a great trip, and enjoy the outdoors!", " Let me know if the delivery date does not work for you.",
	  " Sorry again for the trouble, and thank you for your patience.",
	  " Please keep the order number handy in case you contact us again." },
	{ "ほかにご不明な点がございましたら、お気軽にお問い合わせください。", "Kumo Outfitters をご利用いただきありがとうございます。",
	  "配送状況は kumo-outfitters.example/track でもご確認いただけます。", "\n\n【概要】\n・注文番号：{order}\n・商品：{product}",
	  "詳しくはヘルプセンターをご覧ください。", "ご登録のメールアドレスに確認メールをお送りしました。",
	  "よい山旅を！", "お届け日のご都合が悪い場合はお知らせください。", "ご迷惑をおかけし申し訳ございませんでした。",
	  "今後ともよろしくお願いいたします。" },
	{ "如有其他问题，请随时联系我们。", "感谢您选择 Kumo Outfitters！", "您也可以在 kumo-outfitters.example/track 查询物流。",
	  "\n\n摘要：\n- 订单：{order}\n- 商品：{product}", "详情请参阅帮助中心。", "确认邮件已发送到您的邮箱。",
	  "祝您旅途愉快！", "如送达时间不方便，请告诉我们。", "再次抱歉给您带来不便。", "谢谢您的耐心等待。" },
};

/* Help-centre article text, for search_faq results. */
static const char *const faq_sent[3][8] = {
	{ "Items bought at full price can be returned within 30 days of delivery for a full refund. ",
	  "Sale items marked 30% off or more can be exchanged for another size or colour but cannot be refunded. ",
	  "Overseas customers have 45 days to start a return, counted from the delivery date shown in tracking. ",
	  "Return shipping is free when the item arrived damaged, faulty or was not what you ordered. ",
	  "For other returns we deduct the cost of the prepaid return label from the refund. ",
	  "Refunds go to the original payment method and usually appear within 5 to 10 business days. ",
	  "Gift cards, personalised items and opened sleeping pads are not returnable for hygiene reasons. ",
	  "To start a return, open your order in your account and choose Return or exchange. " },
	{ "定価でご購入の商品は、お届けから30日以内であれば全額返金で返品いただけます。",
	  "30%以上割引のセール品は、サイズ・カラーの交換のみ承ります。返金はできません。",
	  "海外のお客様は、追跡記録上の配達日から45日以内に返品手続きを開始してください。",
	  "破損・不良・誤配送の場合、返送料は当店が負担いたします。", "それ以外の返品では、返送ラベルの費用を返金額から差し引きます。",
	  "返金は元のお支払い方法に行われ、通常5〜10営業日で反映されます。", "ギフトカード、名入れ商品、開封済みのスリーピングマットは返品できません。",
	  "返品はアカウントの注文履歴から「返品・交換」を選んで開始できます。" },
	{ "原价购买的商品自签收起 30 天内可全额退款。", "七折及以下的打折商品只能换尺码或颜色，不能退款。",
	  "海外顾客可在物流显示的签收日起 45 天内申请退货。", "商品损坏、有质量问题或发错货时，退货运费由我们承担。",
	  "其他情况的退货运费将从退款中扣除。", "退款将退回原支付方式，通常 5–10 个工作日到账。",
	  "礼品卡、定制商品和已拆封的睡垫不支持退货。", "请在账户的订单页面选择“退货或换货”开始办理。" },
};

/* ---- a run ------------------------------------------------------------ */

struct ctx {
	enum lang lang;
	const struct task *task;
	int ti;
	const struct customer *cust;
	const struct product *prod;
	const struct color *color;
	const char *size;
	const struct carrier *carrier;
	char order[16];
	char tracking[24];
	const char *place;
	unsigned stock;
};

/* Writes tmpl with {name} placeholders filled in, raw (not escaped). */
static void expand(struct buf *b, const char *tmpl, const struct ctx *c)
{
	const char *p = tmpl;
	while (*p) {
		const char *o = strchr(p, '{');
		if (!o) {
			puts_(b, p);
			return;
		}
		put(b, p, (size_t)(o - p));
		const char *e = strchr(o, '}');
		if (!e) {
			puts_(b, o);
			return;
		}
		size_t n = (size_t)(e - o - 1);
#define IS(k) (n == strlen(k) && !strncmp(o + 1, k, n))
		if (IS("order")) puts_(b, c->order);
		else if (IS("product")) puts_(b, c->prod->name[c->lang]);
		else if (IS("size")) puts_(b, c->size);
		else if (IS("color")) puts_(b, c->color->name[c->lang]);
		else if (IS("city")) puts_(b, c->cust->city);
		else if (IS("tracking")) puts_(b, c->tracking);
		else if (IS("carrier")) puts_(b, c->carrier->service);
		else if (IS("place")) puts_(b, c->place);
		else if (IS("stock")) putf(b, "%u", c->stock);
		else put(b, o, n + 2);
#undef IS
		p = e + 1;
	}
}

static void put_expanded_jstr(struct buf *b, struct buf *tmp, const char *tmpl, const struct ctx *c)
{
	tmp->len = 0;
	expand(tmp, tmpl, c);
	put_jstr(b, tmp->p, tmp->len);
}

static const char *pick_tmpl(const char *const *v, size_t n)
{
	size_t k = 0;
	while (k < n && v[k])
		k++;
	return v[below((unsigned)k)];
}

static void iso_time(struct buf *b, unsigned day, unsigned minute)
{
	putf(b, "2025-%02u-%02uT%02u:%02u:00Z", 3 + day / 28, 1 + day % 28, (minute / 60) % 24, minute % 60);
}

/* ---- tool arguments and results (built as JSON text) ------------------ */

static void args_json(struct buf *a, int tool, const struct ctx *c)
{
	a->len = 0;
	puts_(a, "{");
	switch (tool) {
	case T_GET_ORDER:
		kv(a, true, "order_id", c->order);
		break;
	case T_TRACK:
		kv(a, true, "tracking_number", c->tracking);
		kv(a, false, "carrier", c->carrier->code);
		break;
	case T_REFUND:
		kv(a, true, "order_id", c->order);
		putf(a, ",\"items\":[{\"sku\":\"%s-%s-%s\",\"qty\":1}]", c->prod->sku, c->size, c->color->code);
		kv(a, false, "reason", c->ti == 8 ? "lost_parcel" : "damaged_item");
		kv(a, false, "method", chance(0.8) ? "original_payment" : "store_credit");
		break;
	case T_CANCEL:
		kv(a, true, "order_id", c->order);
		kv(a, false, "reason", "customer_request");
		break;
	case T_ADDRESS:
		kv(a, true, "order_id", c->order);
		puts_(a, ",\"address\":{");
		kv(a, true, "postal_code", c->cust->postal);
		kv(a, false, c->cust->country[0] == 'J' ? "prefecture" : "state", c->cust->region);
		kv(a, false, "city", c->cust->city);
		kv(a, false, "line1", c->cust->line1);
		kv(a, false, "country", c->cust->country);
		puts_(a, "}");
		break;
	case T_INVENTORY:
		kv(a, true, "product", c->prod->name[EN]);
		kv(a, false, "size", c->size);
		kv(a, false, "color", c->color->name[EN]);
		break;
	case T_FAQ:
		kv(a, true, "query", c->lang == EN ? "return policy sale items overseas"
		                     : c->lang == JA ? "返品 セール品" : "退货政策");
		kv(a, false, "language", lang_code[c->lang]);
		break;
	case T_ESCALATE:
		kv(a, true, "reason", "customer_request");
		kv(a, false, "priority", "high");
		puts_(a, ",\"summary\":");
		{
			struct buf s = { 0 };
			putf(&s, "Customer upset about order %s (%s); asked for a human.", c->order, c->prod->name[EN]);
			put_jstr(a, s.p, s.len);
			free(s.p);
		}
		kv(a, false, "language", lang_code[c->lang]);
		break;
	}
	puts_(a, "}");
}

static void track_events(struct buf *r, const struct ctx *c, unsigned n, bool raw_feed)
{
	puts_(r, "[");
	unsigned day = below(20), minute = below(1440);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			puts_(r, ",");
		puts_(r, "{\"time\":\"");
		iso_time(r, day, minute);
		puts_(r, "\"");
		kv(r, false, "location", places[c->lang][below(8)]);
		kv(r, false, "description", track_desc[c->lang][i < 6 ? i : below(7)]);
		if (raw_feed)
			putf(r, ",\"scan_id\":\"%08x%08x\",\"facility_code\":\"F%04u\",\"raw\":\"EVT|%u|%s|%s\"",
			     (unsigned)rnd(), (unsigned)rnd(), below(10000), i, c->carrier->code, c->tracking);
		puts_(r, "}");
		minute += 30 + below(600);
		day += minute / 1440;
		minute %= 1440;
	}
	puts_(r, "]");
}

static void faq_article(struct buf *r, const struct ctx *c, unsigned k, unsigned nsent)
{
	putf(r, "{\"id\":\"faq-%u\"", 100 + k);
	kv(r, false, "title", c->lang == EN ? "Returns and exchanges" : c->lang == JA ? "返品・交換について" : "退换货说明");
	putf(r, ",\"url\":\"https://kumo-outfitters.example/help/%s/faq-%u\",\"body\":", lang_code[c->lang], 100 + k);
	struct buf body = { 0 };
	for (unsigned i = 0; i < nsent; i++)
		puts_(&body, faq_sent[c->lang][below(8)]);
	put_jstr(r, body.p, body.len);
	free(body.p);
	putf(r, ",\"updated_at\":\"2025-0%u-1%uT00:00:00Z\"}", 1 + below(3), below(10));
}

/* The result text of one call; `huge` makes it ~100 KB. */
static void result_json(struct buf *r, int tool, const struct ctx *c, bool huge)
{
	r->len = 0;
	switch (tool) {
	case T_GET_ORDER: {
		unsigned nitems = chance(0.7) ? 1 : between(2, 3);
		puts_(r, "{");
		kv(r, true, "order_id", c->order);
		kv(r, false, "status", c->task->order_status ? c->task->order_status : "delivered");
		puts_(r, ",\"placed_at\":\"");
		iso_time(r, below(10), below(1440));
		puts_(r, "\",\"customer\":{");
		kv(r, true, "name", c->cust->name);
		kv(r, false, "email", c->cust->email);
		kv(r, false, "country", c->cust->country);
		puts_(r, "},\"items\":[");
		double total = 0;
		for (unsigned i = 0; i < nitems; i++) {
			const struct product *p = i == 0 ? c->prod : &PICK(products);
			const struct color *col = i == 0 ? c->color : &PICK(colors);
			const char *sz = i == 0 ? c->size : PICK(sizes);
			if (i)
				puts_(r, ",");
			putf(r, "{\"sku\":\"%s-%s-%s\"", p->sku, sz, col->code);
			kv(r, false, "name", p->name[c->lang]);
			kv(r, false, "size", sz);
			kv(r, false, "color", col->name[c->lang]);
			putf(r, ",\"qty\":1,\"price\":%.1f,\"on_sale\":%s}", p->usd, chance(0.2) ? "true" : "false");
			total += p->usd;
		}
		putf(r, "],\"total\":%.1f", total);
		kv(r, false, "currency", c->cust->currency);
		puts_(r, ",\"shipping\":{");
		kv(r, true, "carrier", c->carrier->code);
		kv(r, false, "service", c->carrier->service);
		kv(r, false, "tracking_number", c->tracking);
		puts_(r, ",\"address\":{");
		kv(r, true, "line1", c->cust->line1);
		kv(r, false, "city", c->cust->city);
		kv(r, false, "region", c->cust->region);
		kv(r, false, "postal_code", c->cust->postal);
		kv(r, false, "country", c->cust->country);
		puts_(r, "}},\"history\":[");
		unsigned nh = between(1, 3);
		static const char *const hist[] = { "placed", "paid", "packed", "shipped", "delivered" };
		for (unsigned i = 0; i < nh; i++) {
			putf(r, "%s{\"status\":\"%s\",\"at\":\"", i ? "," : "", hist[i]);
			iso_time(r, 10 + i, below(1440));
			puts_(r, "\"}");
		}
		puts_(r, "]}");
		break;
	}
	case T_TRACK:
		puts_(r, "{");
		kv(r, true, "tracking_number", c->tracking);
		kv(r, false, "carrier", c->carrier->code);
		kv(r, false, "status", c->ti == 8 ? "delivered" : "in_transit");
		puts_(r, ",\"events\":");
		if (huge)
			track_events(r, c, between(420, 700), true);
		else
			track_events(r, c, between(2, 9), false);
		putf(r, ",\"estimated_delivery\":\"2025-03-%02u\"}", between(10, 28));
		break;
	case T_REFUND:
		putf(r, "{\"refund_id\":\"RF-%06u\",\"order_id\":\"%s\",\"status\":\"refunded\",\"amount\":%.1f",
		     below(1000000), c->order, c->prod->usd);
		kv(r, false, "currency", c->cust->currency);
		kv(r, false, "method", "original_payment");
		puts_(r, ",\"expected_in_days\":\"5-10\"}");
		break;
	case T_CANCEL:
		putf(r, "{\"order_id\":\"%s\",\"status\":\"cancelled\",\"refund\":{\"amount\":%.1f",
		     c->order, c->prod->usd);
		kv(r, false, "currency", c->cust->currency);
		puts_(r, ",\"method\":\"original_payment\"}}");
		break;
	case T_ADDRESS:
		putf(r, "{\"order_id\":\"%s\",\"status\":\"processing\",\"address_updated\":true,\"address\":{", c->order);
		kv(r, true, "line1", c->cust->line1);
		kv(r, false, "city", c->cust->city);
		kv(r, false, "postal_code", c->cust->postal);
		kv(r, false, "country", c->cust->country);
		puts_(r, "}}");
		break;
	case T_INVENTORY:
		if (huge) {
			/* The whole catalogue feed instead of one variant. */
			puts_(r, "{\"results\":[");
			unsigned n = between(500, 800);
			for (unsigned i = 0; i < n; i++) {
				const struct product *p = &products[i % NELEM(products)];
				const struct color *col = &colors[(i / NELEM(products)) % NELEM(colors)];
				const char *sz = sizes[(i / 60) % NELEM(sizes)];
				putf(r, "%s{\"sku\":\"%s-%s-%s\"", i ? "," : "", p->sku, sz, col->code);
				kv(r, false, "product", p->name[c->lang]);
				kv(r, false, "size", sz);
				kv(r, false, "color", col->name[c->lang]);
				putf(r, ",\"in_stock\":%u}", below(30));
			}
			puts_(r, "]}");
		} else {
			putf(r, "{\"sku\":\"%s-%s-%s\"", c->prod->sku, c->size, c->color->code);
			kv(r, false, "product", c->prod->name[EN]);
			kv(r, false, "size", c->size);
			kv(r, false, "color", c->color->name[EN]);
			putf(r, ",\"in_stock\":%u,\"warehouse\":\"Ebetsu\"", c->stock);
			if (chance(0.5)) {
				puts_(r, ",\"other_sizes\":[");
				for (unsigned i = 0; i < NELEM(sizes); i++)
					putf(r, "%s{\"size\":\"%s\",\"in_stock\":%u}", i ? "," : "", sizes[i], below(12));
				puts_(r, "]");
			}
			puts_(r, "}");
		}
		break;
	case T_FAQ: {
		unsigned n = huge ? between(60, 90) : between(1, 2);
		puts_(r, "{\"results\":[");
		for (unsigned i = 0; i < n; i++) {
			if (i)
				puts_(r, ",");
			faq_article(r, c, below(400), huge ? between(6, 14) : between(1, 4));
		}
		puts_(r, "]}");
		break;
	}
	case T_ESCALATE:
		putf(r, "{\"ticket_id\":\"T-%07u\",\"queue\":\"%s\",\"priority\":\"high\",\"estimated_wait_minutes\":%u}",
		     below(10000000), lang_code[c->lang], between(5, 240));
		break;
	}
}

/* ---- the run ---------------------------------------------------------- */

static unsigned pick_ncalls(void)
{
	/* 2..12, most runs short. */
	static const unsigned w[] = { 27, 22, 16, 11, 8, 6, 4, 3, 2, 1, 1 };
	unsigned total = 0;
	for (size_t i = 0; i < NELEM(w); i++)
		total += w[i];
	unsigned x = below(total);
	for (size_t i = 0; i < NELEM(w); i++) {
		if (x < w[i])
			return 2 + (unsigned)i;
		x -= w[i];
	}
	return 2;
}

static int extra_tool(const struct ctx *c)
{
	switch (below(6)) {
	case 0: return T_FAQ;
	case 1: return T_INVENTORY;
	case 2: return c->task->order_status ? T_TRACK : T_FAQ;
	default: return c->task->order_status ? T_GET_ORDER : T_INVENTORY;
	}
}

static void call_id(char out[32])
{
	memcpy(out, "call_", 5);
	rand_alnum(out + 5, 24);
}

/* The customer, order and parcel of one run. */
static void ctx_init(struct ctx *c)
{
	unsigned lr = below(100);
	c->lang = lr < 64 ? EN : lr < 88 ? JA : ZH;
	c->ti = (int)below(NELEM(tasks));
	c->task = &tasks[c->ti];
	c->cust = c->lang == EN ? &PICK(cust_en) : c->lang == JA ? &PICK(cust_ja) : &PICK(cust_zh);
	c->prod = &PICK(products);
	c->color = &PICK(colors);
	c->size = PICK(sizes);
	c->carrier = c->lang == JA ? &carriers[3 + below(2)] : c->lang == ZH ? &carriers[5] : &carriers[below(3)];
	snprintf(c->order, sizeof c->order, "KO-%06u", 100000 + below(900000));
	snprintf(c->tracking, sizeof c->tracking, "%010u%02u", (unsigned)(rnd() % 4000000000u), below(100));
	c->place = places[c->lang][below(8)];
	c->stock = between(1, 25);
}

static void write_run(struct buf *b, unsigned long n)
{
	struct ctx c;
	struct buf tmp = { 0 }, args = { 0 }, res = { 0 };
	ctx_init(&c);

	/* Tool sequence: the task's expected tools, sometimes wrong, plus extras. */
	int seq[16];
	unsigned ns = 0;
	unsigned target = pick_ncalls();
	for (int i = 0; i < c.task->nexp; i++)
		seq[ns++] = c.task->expected[i];
	unsigned v = below(100);
	if (v < 10 && ns > 1) {
		unsigned drop = below(ns);           /* a forgotten step */
		memmove(seq + drop, seq + drop + 1, (ns - drop - 1) * sizeof *seq);
		ns--;
	} else if (v < 18 && ns > 1) {
		int t = seq[0];                      /* steps in the wrong order */
		seq[0] = seq[1];
		seq[1] = t;
	}
	while (ns < target) {
		unsigned at = chance(0.08) ? 0 : 1 + below(ns);
		memmove(seq + at + 1, seq + at, (ns - at) * sizeof *seq);
		seq[at] = extra_tool(&c);
		ns++;
	}
	/* Now and then the model cuts its arguments short and retries. */
	unsigned bad_at = ns;
	if (ns < 12 && chance(0.02)) {
		bad_at = below(ns);
		memmove(seq + bad_at + 1, seq + bad_at, (ns - bad_at) * sizeof *seq);
		ns++;
	}
	/* Now and then one result is huge: a raw carrier feed, the whole
	 * catalogue or the whole help centre. */
	unsigned huge_at = ns;
	if (chance(0.015)) {
		unsigned cand[16], nc = 0;
		for (unsigned k = 0; k < ns; k++)
			if (seq[k] == T_TRACK || seq[k] == T_INVENTORY || seq[k] == T_FAQ)
				cand[nc++] = k;
		if (nc)
			huge_at = cand[below(nc)];
	}
	unsigned confirm_at = chance(0.35) ? below(ns) : ns;

	putf(b, "{\"id\":\"bench-%06lu\"", n);
	kv(b, false, "task_id", c.task->id);
	kv(b, false, "model", PICK(models));
	puts_(b, ",\"messages\":[{\"role\":\"system\",\"content\":");
	put_js(b, system_prompt);
	puts_(b, "},{\"role\":\"user\",\"content\":");
	tmp.len = 0;
	expand(&tmp, pick_tmpl(first_msg[c.ti][c.lang], 3), &c);
	for (unsigned k = below(4); k > 0; k--)
		puts_(&tmp, more_user[c.lang][below(6)]);
	put_jstr(b, tmp.p, tmp.len);
	puts_(b, "}");

	unsigned i = 0;
	while (i < ns) {
		unsigned group = 1;
		if (chance(0.12))
			group = between(2, 3);
		if (i + group > ns)
			group = ns - i;
		if (i <= bad_at && bad_at < i + group)
			group = bad_at - i + 1;      /* the retry comes after its error */
		char ids[3][32];
		bool bad[3] = { false, false, false };
		puts_(b, ",{\"role\":\"assistant\",\"content\":");
		if (chance(0.3))
			put_js(b, before_call[c.lang][below(4)]);
		else
			puts_(b, "null");
		puts_(b, ",\"tool_calls\":[");
		for (unsigned g = 0; g < group; g++) {
			call_id(ids[g]);
			args_json(&args, seq[i + g], &c);
			if (i + g == bad_at) {
				bad[g] = true;
				args.len--;
				args.p[args.len] = '\0';
			}
			putf(b, "%s{\"id\":\"%s\",\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":",
			     g ? "," : "", ids[g], tool_name[seq[i + g]]);
			put_jstr(b, args.p, args.len);
			puts_(b, "}}");
		}
		puts_(b, "]}");
		for (unsigned g = 0; g < group; g++) {
			unsigned k = i + g;
			putf(b, ",{\"role\":\"tool\",\"tool_call_id\":\"%s\",\"content\":", ids[g]);
			if (bad[g]) {
				put_js(b, "{\"error\":\"invalid_arguments\",\"message\":\"arguments are not valid JSON: unexpected end of input\"}");
			} else if (chance(0.02)) {
				put_js(b, PICK(((const char *const[]){
					"Error: upstream timeout after 30s", "Error: rate limited by carrier API, retry later",
					"Error: order not found" })));
			} else {
				result_json(&res, seq[k], &c, k == huge_at);
				put_jstr(b, res.p, res.len);
			}
			puts_(b, "}");
		}
		i += group;
		if (i > confirm_at && confirm_at < ns) {
			confirm_at = ns;
			puts_(b, ",{\"role\":\"assistant\",\"content\":");
			put_expanded_jstr(b, &tmp, confirm_q[c.lang][below(3)], &c);
			puts_(b, "},{\"role\":\"user\",\"content\":");
			put_expanded_jstr(b, &tmp, confirm_a[c.lang][below(4)], &c);
			puts_(b, "}");
		}
	}

	/* The final answer: a few hundred bytes to a few KB. */
	tmp.len = 0;
	expand(&tmp, final_core[c.ti][c.lang], &c);
	unsigned ncl = chance(0.1) ? between(6, 16) : between(0, 3);
	for (unsigned k = 0; k < ncl; k++)
		expand(&tmp, closing[c.lang][below(10)], &c);
	puts_(b, ",{\"role\":\"assistant\",\"content\":");
	put_jstr(b, tmp.p, tmp.len);
	puts_(b, "}],\"tools\":");
	puts_(b, tools_json);
	puts_(b, "}\n");
	free(tmp.p);
	free(args.p);
	free(res.p);
}

/* ---- Mastra mode ------------------------------------------------------ */

static void put_uuid(struct buf *b)
{
	uint64_t x = rnd(), y = rnd();
	putf(b, "\"%08x-%04x-4%03x-%04x-%012llx\"", (unsigned)(x >> 32), (unsigned)(x >> 16) & 0xffff,
	     (unsigned)x & 0xfff, 0x8000u | ((unsigned)(y >> 48) & 0x3fff),
	     (unsigned long long)(y & 0xffffffffffffULL));
}

/* The fields every MastraDBMessage carries before its content. */
static void mastra_head(struct buf *b, const char *role, unsigned long n, unsigned *minute)
{
	puts_(b, "{\"id\":");
	put_uuid(b);
	putf(b, ",\"role\":\"%s\",\"createdAt\":\"2025-03-%02uT%02u:%02u:%02u.%03uZ\"", role,
	     1 + (unsigned)(n % 28), (*minute / 60) % 24, *minute % 60, below(60), below(1000));
	putf(b, ",\"threadId\":\"thread-%06lu\",\"resourceId\":\"kumo-support\"", n);
	*minute += 1 + below(3);
}

/* A message with text only: content.content and one text part. */
static void mastra_text_msg(struct buf *b, const char *role, const char *text, size_t len,
                            unsigned long n, unsigned *minute)
{
	mastra_head(b, role, n, minute);
	puts_(b, ",\"content\":{\"format\":2,\"content\":");
	put_jstr(b, text, len);
	puts_(b, ",\"parts\":[{\"type\":\"text\",\"text\":");
	put_jstr(b, text, len);
	puts_(b, "}]}}");
}

struct mcall {
	int tool;
	char id[32];
	bool failed;
};

/* One invocation object: the shape of a part's toolInvocation (with its
 * step, state first) or of content.toolInvocations (state last). */
static void mastra_invocation(struct buf *b, const struct mcall *k, unsigned step, bool in_part,
                              const char *args, const char *result)
{
	if (in_part)
		putf(b, "{\"state\":\"%s\",\"step\":%u,", k->failed ? "output-error" : "result", step);
	else
		puts_(b, "{");
	putf(b, "\"toolCallId\":\"%s\",\"toolName\":\"%s\",\"args\":%s", k->id, tool_name[k->tool], args);
	if (k->failed)
		puts_(b, ",\"errorText\":\"upstream timeout after 30s\",\"isError\":true");
	else
		putf(b, ",\"result\":%s", result);
	if (!in_part)
		putf(b, ",\"state\":\"%s\"", k->failed ? "output-error" : "result");
	puts_(b, "}");
}

/* A Mastra scorer run in the 1.x shape of examples/runs/mastra.jsonl:
 * {id, task_id, inputMessages: [user], output: [assistant]}, the calls in
 * the assistant's content.parts, in content.toolInvocations or in both (as
 * Mastra writes them), a few hundred bytes to a few KB. */
static void write_run_mastra(struct buf *b, unsigned long n)
{
	struct ctx c;
	struct buf tmp = { 0 }, args[4] = { { 0 } }, res[4] = { { 0 } };
	ctx_init(&c);
	unsigned minute = below(1440);

	/* The task's tools, now and then one forgotten, swapped or extra. */
	struct mcall calls[4];
	unsigned nc = 0;
	for (int i = 0; i < c.task->nexp; i++)
		calls[nc++].tool = c.task->expected[i];
	unsigned v = below(100);
	if (v < 8 && nc > 0) {
		nc--;
	} else if (v < 14 && nc > 1) {
		int t = calls[0].tool;
		calls[0].tool = calls[1].tool;
		calls[1].tool = t;
	} else if (v < 24 && nc < 4) {
		calls[nc++].tool = extra_tool(&c);
	}
	for (unsigned k = 0; k < nc; k++) {
		call_id(calls[k].id);
		calls[k].failed = chance(0.03);
		args_json(&args[k], calls[k].tool, &c);
		result_json(&res[k], calls[k].tool, &c, false);
	}
	/* Where the calls are: parts and toolInvocations, or only one of them. */
	unsigned where = below(10);
	bool in_parts = where < 7, in_legacy = where < 4 || where >= 7;

	putf(b, "{\"id\":\"mastra-%06lu\"", n);
	kv(b, false, "task_id", c.task->id);
	puts_(b, ",\"inputMessages\":[");
	tmp.len = 0;
	expand(&tmp, pick_tmpl(first_msg[c.ti][c.lang], 3), &c);
	for (unsigned k = below(3); k > 0; k--)
		puts_(&tmp, more_user[c.lang][below(6)]);
	mastra_text_msg(b, "user", tmp.p, tmp.len, n, &minute);
	puts_(b, "],\"output\":[");

	tmp.len = 0;
	expand(&tmp, final_core[c.ti][c.lang], &c);
	unsigned ncl = chance(0.1) ? between(3, 8) : between(0, 2);
	for (unsigned k = 0; k < ncl; k++)
		expand(&tmp, closing[c.lang][below(10)], &c);
	if (nc == 0) {
		mastra_text_msg(b, "assistant", tmp.p, tmp.len, n, &minute);
	} else {
		mastra_head(b, "assistant", n, &minute);
		puts_(b, ",\"content\":{\"format\":2,\"content\":");
		put_jstr(b, tmp.p, tmp.len);
		puts_(b, ",\"parts\":[{\"type\":\"step-start\"}");
		for (unsigned k = 0; in_parts && k < nc; k++) {
			puts_(b, ",{\"type\":\"tool-invocation\",\"toolInvocation\":");
			mastra_invocation(b, &calls[k], k, true, args[k].p, res[k].p);
			puts_(b, "},{\"type\":\"step-start\"}");
		}
		puts_(b, ",{\"type\":\"text\",\"text\":");
		put_jstr(b, tmp.p, tmp.len);
		puts_(b, "}]");
		if (in_legacy) {
			puts_(b, ",\"toolInvocations\":[");
			for (unsigned k = 0; k < nc; k++) {
				if (k)
					puts_(b, ",");
				mastra_invocation(b, &calls[k], k, false, args[k].p, res[k].p);
			}
			puts_(b, "]");
		}
		puts_(b, "}}");
	}
	puts_(b, "]}\n");
	free(tmp.p);
	for (unsigned k = 0; k < 4; k++) {
		free(args[k].p);
		free(res[k].p);
	}
}

/* ---- huge mode ----------------------------------------------------------- */

/* Pieces of the huge message: sentences in three scripts, emoji (a ZWJ
 * sequence, a skin tone, a flag, a variation selector), combining marks,
 * tabs and the controls the screen must show escaped. */
static const char *const huge_bits[] = {
	"The parcel left the Sapporo warehouse this morning. ", "Thanks for your patience! \xf0\x9f\x99\x82 ",
	"\xe8\x8d\xb7\xe7\x89\xa9\xe3\x81\xaf\xe6\x9c\xad\xe5\xb9\x8c\xe3\x82\x92\xe5\x87\xba\xe7\x99\xba\xe3\x81\x97\xe3\x81\xbe\xe3\x81\x97\xe3\x81\x9f\xe3\x80\x82",
	"\xe5\x8c\x85\xe8\xa3\xb9\xe5\xb7\xb2\xe7\xbb\x8f\xe5\x8f\x91\xe5\x87\xba\xef\xbc\x8c\xe8\xaf\xb7\xe8\x80\x90\xe5\xbf\x83\xe7\xad\x89\xe5\xbe\x85\xe3\x80\x82",
	"Team: \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd \xf0\x9f\x87\xaf\xf0\x9f\x87\xb5 \xe2\x9d\xa4\xef\xb8\x8f. ",
	"Cafe\xcc\x81 au lait, nai\xcc\x88ve re\xcc\x81sume\xcc\x81. ", "item\tqty\tprice\t", "KO-204817\t1\t189.0\t",
	"raw carrier code \x1b[31mEXC\x1b[0m ", "\xe2\x80\xae reversed? ",
	"Supercalifragilisticexpialidocious-and-then-some-more-without-any-space-at-all ",
};

/* One OpenAI Chat run whose final assistant message is about SIZE_MB of
 * text, for the screen's memory: paragraphs of a few hundred bytes to a
 * few KB, and every ~8 MB one of ~1 MB without a newline. */
static void write_huge(FILE *f, uint64_t target)
{
	struct buf b = { 0 };
	puts_(&b, "{\"id\":\"huge-000001\",\"task_id\":\"where-is-my-order\",\"model\":\"gpt-4o\",\"messages\":[");
	puts_(&b, "{\"role\":\"system\",\"content\":");
	put_js(&b, system_prompt);
	puts_(&b, "},{\"role\":\"user\",\"content\":\"Where is my order KO-204817?\"},");
	puts_(&b, "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_huge1\",\"type\":\"function\","
	          "\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"KO-204817\\\"}\"}}]},");
	puts_(&b, "{\"role\":\"tool\",\"tool_call_id\":\"call_huge1\",\"content\":\"{\\\"status\\\":\\\"shipped\\\"}\"},");
	puts_(&b, "{\"role\":\"assistant\",\"content\":\"");
	struct buf text = { 0 }, esc = { 0 };
	uint64_t written = 0, next_long = 4000000;
	while (written + b.len < target) {
		text.len = 0;
		size_t want = written + b.len >= next_long ? 1000000 : between(100, 4000);
		if (want == 1000000)
			next_long += 8000000;
		while (text.len < want)
			puts_(&text, PICK(huge_bits));
		if (want != 1000000 && chance(0.3))
			puts_(&text, "\n");
		puts_(&text, "\n");
		esc.len = 0;
		put_jstr(&esc, text.p, text.len);
		put(&b, esc.p + 1, esc.len - 2);        /* without its quotes */
		if (b.len > (1u << 20)) {
			if (fwrite(b.p, 1, b.len, f) != b.len)
				break;
			written += b.len;
			b.len = 0;
		}
	}
	puts_(&b, "\"}]}\n");
	fwrite(b.p, 1, b.len, f);
	free(b.p);
	free(text.p);
	free(esc.p);
}

/* ---- session mode ---------------------------------------------------------- */

/* One OpenAI Chat run of about SIZE_MB: a long support session where the
 * agent works through order after order, tens of thousands of calls with
 * their results (now and then a huge one: a raw carrier feed, the
 * catalogue) and the customer's follow-ups, then one final answer. For
 * the cost of one very large record against ordinary ones. */
static void write_session(FILE *f, uint64_t target)
{
	struct buf b = { 0 }, tmp = { 0 }, args = { 0 }, res = { 0 };
	struct ctx c;
	ctx_init(&c);
	puts_(&b, "{\"id\":\"session-000001\"");
	kv(&b, false, "task_id", c.task->id);
	kv(&b, false, "model", PICK(models));
	puts_(&b, ",\"messages\":[{\"role\":\"system\",\"content\":");
	put_js(&b, system_prompt);
	puts_(&b, "},{\"role\":\"user\",\"content\":");
	put_expanded_jstr(&b, &tmp, pick_tmpl(first_msg[c.ti][c.lang], 3), &c);
	puts_(&b, "}");
	uint64_t written = 0;
	/* Room for the final answer and the tools after the last step. */
	while (written + b.len + 8192 < target) {
		if (chance(0.05))
			ctx_init(&c);           /* the next order of the session */
		unsigned group = chance(0.12) ? between(2, 3) : 1;
		int tools[3];
		char ids[3][32];
		puts_(&b, ",{\"role\":\"assistant\",\"content\":");
		if (chance(0.3))
			put_js(&b, before_call[c.lang][below(4)]);
		else
			puts_(&b, "null");
		puts_(&b, ",\"tool_calls\":[");
		for (unsigned g = 0; g < group; g++) {
			tools[g] = chance(0.5) ? c.task->expected[below((unsigned)c.task->nexp)] : extra_tool(&c);
			call_id(ids[g]);
			args_json(&args, tools[g], &c);
			putf(&b, "%s{\"id\":\"%s\",\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":",
			     g ? "," : "", ids[g], tool_name[tools[g]]);
			put_jstr(&b, args.p, args.len);
			puts_(&b, "}}");
		}
		puts_(&b, "]}");
		for (unsigned g = 0; g < group; g++) {
			putf(&b, ",{\"role\":\"tool\",\"tool_call_id\":\"%s\",\"content\":", ids[g]);
			bool huge = (tools[g] == T_TRACK || tools[g] == T_INVENTORY || tools[g] == T_FAQ) &&
			            chance(0.01);
			result_json(&res, tools[g], &c, huge);
			put_jstr(&b, res.p, res.len);
			puts_(&b, "}");
		}
		if (chance(0.1)) {
			puts_(&b, ",{\"role\":\"user\",\"content\":");
			put_expanded_jstr(&b, &tmp, confirm_a[c.lang][below(4)], &c);
			puts_(&b, "}");
		}
		if (b.len > (1u << 20)) {
			if (fwrite(b.p, 1, b.len, f) != b.len)
				break;
			written += b.len;
			b.len = 0;
		}
	}
	tmp.len = 0;
	expand(&tmp, final_core[c.ti][c.lang], &c);
	puts_(&b, ",{\"role\":\"assistant\",\"content\":");
	put_jstr(&b, tmp.p, tmp.len);
	puts_(&b, "}],\"tools\":");
	puts_(&b, tools_json);
	puts_(&b, "}\n");
	fwrite(b.p, 1, b.len, f);
	free(b.p);
	free(tmp.p);
	free(args.p);
	free(res.p);
}

static void usage(void)
{
	fputs("usage: gen [-s SEED] [-m chat|mastra|huge|session] [SIZE_MB] [OUT]\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t seed = 20250301;
	const char *mode = "chat";
	int i = 1;
	while (i < argc && (!strcmp(argv[i], "-s") || !strcmp(argv[i], "-m"))) {
		if (i + 1 >= argc)
			usage();
		if (argv[i][1] == 's')
			seed = strtoull(argv[i + 1], NULL, 10);
		else
			mode = argv[i + 1];
		i += 2;
	}
	void (*write_one)(struct buf *, unsigned long) = write_run;
	if (!strcmp(mode, "mastra"))
		write_one = write_run_mastra;
	else if (strcmp(mode, "chat") && strcmp(mode, "huge") && strcmp(mode, "session"))
		usage();
	bool one = !strcmp(mode, "huge") || !strcmp(mode, "session");
	double mb = 200;
	if (i < argc) {
		char *end;
		mb = strtod(argv[i], &end);
		if (*end || mb <= 0)
			usage();
		i++;
	}
	const char *out = i < argc ? argv[i++] : "-";
	if (i < argc)
		usage();
	FILE *f = strcmp(out, "-") ? fopen(out, "wb") : stdout;
	if (!f) {
		fprintf(stderr, "gen: %s: %s\n", out, strerror(errno));
		return 1;
	}
	rng = seed;
	uint64_t target = (uint64_t)(mb * 1e6);
	uint64_t written = 0;
	unsigned long n = 0;
	struct buf b = { 0 };
	if (one) {
		if (!strcmp(mode, "huge"))
			write_huge(f, target);
		else
			write_session(f, target);
		n = 1;
		written = (uint64_t)ftello(f);
	}
	while (written < target && !one) {
		b.len = 0;
		write_one(&b, ++n);
		if (fwrite(b.p, 1, b.len, f) != b.len) {
			fprintf(stderr, "gen: %s: %s\n", out, strerror(errno));
			return 1;
		}
		written += b.len;
	}
	free(b.p);
	if (ferror(f) || fflush(f) != 0 || (f != stdout && fclose(f) != 0)) {
		fprintf(stderr, "gen: %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(stderr, "gen: %lu runs, %llu bytes\n", n, (unsigned long long)written);
	return 0;
}
